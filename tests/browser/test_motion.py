"""Motion where a player looks for it (issue 23), in real Chromium: a new hand is dealt from the
stock to both hands; a knock lays both hands open and the lay-offs then travel onto the
knocker's melds; the scores and the hand's points count up. The page is in its final state
while it runs (the animation is only drawn on top), and under prefers-reduced-motion nothing
moves at all."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.browser.table_helpers import SIZES, knocked_against, sign_in, table_in
from tests.browser.test_table_first_screen import BEA_LAYS_OFF

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Every animation the page starts is noted as it starts (however fast the machine runs them to
# their end): what it moves and its delay.
NOTE_ANIMATIONS = """
    window.__animated = [];
    const animate = Element.prototype.animate;
    Element.prototype.animate = function (keyframes, options) {
        window.__animated.push({el: this, delay: (options && options.delay) || 0});
        return animate.call(this, keyframes, options);
    };
"""
STARTED = """(selector) => window.__animated
    .filter(a => a.el.isConnected && a.el.matches(selector)).map(a => a.delay)"""


@pytest.fixture(params=["no-preference", "reduce"])
def motion(browser: Browser, request: pytest.FixtureRequest) -> Iterator[BrowserContext]:
    context = browser.new_context(viewport=SIZES["390x844"], reduced_motion=request.param)
    context.add_init_script(NOTE_ANIMATIONS)
    yield context
    context.close()


def _delays(page: Page, selector: str) -> list[float]:
    return list(page.evaluate(STARTED, selector))


def _nothing_moved(page: Page) -> bool:
    return bool(page.evaluate("window.__animated.length + document.getAnimations().length === 0"))


def _table(context: BrowserContext, base: str, user: User, phase: str) -> Page:
    """``user``'s table against Bea in ``phase``, its animations noted from now on."""
    sign_in(context, base, user)
    public_id = (
        knocked_against(user, BEA_LAYS_OFF, knock=False)
        if phase == "knock"
        else table_in(user, phase).public_id
    )
    page = context.new_page()
    page.goto(f"{base}/games/{public_id}/")
    page.evaluate("window.__animated = []")
    return page


def test_a_knock_lays_both_hands_open_and_the_lay_offs_travel(
    motion: BrowserContext, base: str, alice: User
):
    still = _reduced(motion)
    page = _table(motion, base, alice, "knock")
    page.locator("#hand input[value='KD']").evaluate("e => e.closest('label').click()")
    page.locator("#actions button[value=knock]").click()
    expect(page.locator("#result .headline")).to_have_text("You knocked and score 40.")
    # The page already says it all: the points, the score, both hands.
    expect(page.locator("#scores .score.mine dd")).to_have_text("40")
    expect(page.locator("#result .side")).to_have_count(2)
    laid_open = _delays(page, "#result .groups .card:not(.laid-off)")
    travelling = _delays(page, "#result .groups .card.laid-off")
    counting = _delays(page, "#result .headline .points, #scores dd strong")
    if still:
        assert _nothing_moved(page)
        return
    # Alice's ten cards from her hand, Bea's six left after the lay-offs from her fan.
    assert len(laid_open) == 16, laid_open
    # The lay-offs move after both hands are open, one after the other.
    assert len(travelling) == 4
    assert min(travelling) > max(laid_open)
    assert len(set(travelling)) == 4
    # The points and the score count up, over the real text.
    assert len(counting) == 2, counting
    expect(page.locator("#result .headline")).to_have_text("You knocked and score 40.")


def test_a_new_hand_is_dealt_from_the_stock(motion: BrowserContext, base: str, alice: User):
    still = _reduced(motion)
    page = _table(motion, base, alice, "hand_over")
    page.locator("#actions button[value=next_hand]").click()
    expect(page.locator("#scores .hand-no dd")).to_have_text("2")
    expect(page.locator("#hand li[data-code]")).to_have_count(10)
    mine = _delays(page, "#hand li[data-code]")
    theirs = _delays(page, "#opponent .backs .card")
    if still:
        assert _nothing_moved(page)
        return
    # Twenty cards, one at a time, to either hand in turn.
    assert len(mine) == 10 and len(theirs) == 10, (mine, theirs)
    assert sorted(mine + theirs) == sorted(set(mine + theirs))
    # The hand is there to play with at once: the buttons are not held back.
    expect(page.locator("#actions .buttons button").first).to_be_enabled()


def test_a_table_opened_on_a_fresh_deal_is_dealt(motion: BrowserContext, base: str, alice: User):
    still = _reduced(motion)
    sign_in(motion, base, alice)
    match = table_in(alice, "upcard")
    page = motion.new_page()
    page.goto(f"{base}/games/{match.public_id}/")
    # Noted since the page began (the init script), not reset: the deal runs as it loads.
    dealt = _delays(page, "#hand li[data-code], #opponent .backs .card")
    assert len(dealt) == (0 if still else 20)
    assert _nothing_moved(page) == still
    # A table opened in the middle of a hand is not dealt again.
    page.goto(f"{base}/games/{table_in(alice, 'draw').public_id}/")
    assert _delays(page, "#hand li[data-code], #opponent .backs .card") == []


def _reduced(context: BrowserContext) -> bool:
    page = context.new_page()
    try:
        return bool(page.evaluate("matchMedia('(prefers-reduced-motion: reduce)').matches"))
    finally:
        page.close()
