"""A finished hand's replay in real Chromium: from the finished table to the replay, stepping with
the buttons and the arrow keys, Bea's note on the move it is about, a link to one move, and
axe-core finding nothing serious on the way."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Browser, BrowserContext, expect

from games.models import Match
from tests.browser.table_helpers import SIZES, off_thread, sign_in
from tests.browser.test_accessibility import serious
from tests.games.live_helpers import lobby_match
from tests.games.test_replay import DECK, FIRST_HAND, NOTE, play

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    made = browser.new_context(viewport=SIZES["390x844"])
    yield made
    made.close()


def _finished_hand(alice: User, bob: User) -> Match:
    """A lobby match whose first hand alice has knocked: six moves (tests/games/test_replay)."""
    match = lobby_match(alice, bob, deck=DECK)
    play(match, FIRST_HAND)
    return match


def test_it_steps_through_a_finished_hand(
    context: BrowserContext, base: str, alice: User, bob: User
):
    match = off_thread(_finished_hand, alice, bob)
    sign_in(context, base, alice)
    page = context.new_page()
    page.goto(f"{base}/games/{match.public_id}/")
    page.get_by_role("link", name="Replay this hand, move by move").click()
    # htmx binds the replay's links when the page has loaded; a click before that would be a
    # plain navigation (a new page, and a new position line).
    page.wait_for_load_state("load")
    page.wait_for_function("window.htmx !== undefined")
    position = page.locator("#replay-position")
    expect(position).to_have_text("The deal: bob dealt; Q♣ was turned up.")
    replay_url = page.url
    # The position line stays the same element (a live region) while the stage changes.
    line = position.element_handle()

    page.get_by_role("link", name="Next move").click()
    expect(position).to_have_text("Move 1 of 6: alice took the upcard Q♣.")
    assert page.url.endswith("?move=1")
    # Pressed on the keyboard, the button keeps the focus for the next press.
    page.get_by_role("link", name="Next move").focus()
    page.keyboard.press("Enter")
    expect(position).to_have_text("Move 2 of 6: alice discarded K♦.")
    assert page.evaluate("document.activeElement.id") == "replay-next"
    expect(page.locator(".replay-notes li")).to_have_text(NOTE)
    expect(page.locator("#move-2")).to_have_attribute("aria-current", "step")
    assert serious(page) == []  # axe-core: no serious or critical violation

    page.keyboard.press("ArrowRight")
    expect(position).to_have_text("Move 3 of 6: bob drew 2♦ from the stock.")
    expect(page.locator(".replay-notes")).to_have_count(0)
    page.keyboard.press("ArrowLeft")
    expect(position).to_have_text("Move 2 of 6: alice discarded K♦.")
    assert line.evaluate("e => e.isConnected")
    # Both hands face up: bob's K♠ is still in his hand before he throws it.
    expect(page.locator('.replay-hand[aria-label="bob\'s hand"] [data-code="KS"]')).to_have_count(1)

    # A link to one move opens the replay there, and a move of the list goes to its position.
    page.goto(replay_url.split("?")[0] + "#move-6")
    expect(position).to_have_text("Move 6 of 6: alice knocked, discarding Q♣.")
    expect(page.locator(".replay-result .headline")).to_have_text("alice knocked and scores 71.")
    assert serious(page) == []
    page.locator("#move-4 a").click()
    expect(position).to_have_text("Move 4 of 6: bob discarded K♠.")
    expect(page.locator("#move-4")).to_have_attribute("aria-current", "step")


def test_a_press_right_after_a_step_stays_on_the_page(
    context: BrowserContext, base: str, alice: User, bob: User
):
    """The Next link a step swaps in answers at once: pressed in the same moment (a player who
    holds Enter), it loads the next move into the stage, not a whole new page that drops the
    keyboard's place."""
    match = off_thread(_finished_hand, alice, bob)
    sign_in(context, base, alice)
    page = context.new_page()
    page.goto(f"{base}/games/{match.public_id}/replay/1/")
    page.wait_for_function("window.htmx !== undefined")
    loads: list[str] = []
    page.on("load", lambda: loads.append(page.url))
    # Step once and, in the same task as the swap, put the focus on the new Next link.
    page.evaluate(
        """() => new Promise(done => {
            document.body.addEventListener("htmx:afterSwap", () => {
                document.getElementById("replay-next").focus();
                done();
            }, {once: true});
            document.getElementById("replay-next").click();
        })"""
    )
    page.keyboard.press("Enter")
    expect(page.locator("#replay-position")).to_have_text("Move 2 of 6: alice discarded K♦.")
    assert page.evaluate("document.activeElement.id") == "replay-next"
    assert loads == []
