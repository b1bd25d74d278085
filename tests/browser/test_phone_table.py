"""The table of a phone app (issue 41): at 360x740, 390x844 and those phones turned sideways, in
English and German, a player walks a match against Bea by tapping (the upcard, a discard, Bea's
turn, a draw, a knock, the hand's result, the next hand, and a gin that ends the match) and every
control each phase needs lies wholly inside the window (its bounding box), with no page load
after the first. In a lobby match the move clock and the quick messages are in the first screen
during the player's own turn, and a quick message's bubble leaves the status line readable.

Screenshots of every phase go to test-artifacts/phone/ (the test prints where).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import TYPE_CHECKING

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, BrowserContext, Page, expect

from games import services
from games.models import Match
from tests.browser.table_helpers import ARTIFACTS, SIZES, off_thread, settle, sign_in
from tests.browser.test_table_layout import outside
from tests.games.conftest import ALICE_KNOCKS, BEA_LOOSE, stacked, start
from tests.games.live_helpers import lobby_match

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = ARTIFACTS / "phone"
PHONES = ("360x740", "390x844", "740x360", "844x390")
LANGUAGES = ("en-GB", "de-DE")
BEA_MS = 15_000
# Where the felt starts in each phase, by page: a longer or shorter status must not move it.
FELT_TOPS: dict[str, dict[str, float]] = {}

# What each phase needs a finger for, and what it must read, all inside the window.
CONTROLS = {
    "upcard": [
        "#status .headline",
        "#scores",
        "#opponent .backs",
        "#pile .discard .card-button",
        "#actions button[value=take_upcard]",
        "#actions button[value=pass]",
        "#hand .hand-cards > li",
    ],
    "discard": [
        "#status .headline",
        "#scores",
        "#pile .discard .card",
        "#actions button[value=discard]",
        "#actions button[value=knock]",
        "#hand .hand-cards > li",
    ],
    "draw": [
        "#status .headline",
        "#scores",
        "#opponent .backs",
        "#pile .stock .card-button",
        "#pile .discard .card-button",
        "#actions button[value=draw_stock]",
        "#hand .hand-cards > li",
    ],
    "hand_over": [
        "#status .headline",
        "#scores",
        "#result .headline",
        "#actions button[value=next_hand]",
    ],
    "match_over": [
        "#status .headline",
        "#scores",
        "#result .headline",
        "#after .new-match button[type=submit]",
    ],
}


@pytest.fixture
def context(browser: Browser, request: pytest.FixtureRequest) -> Iterator[BrowserContext]:
    size, locale = request.param
    context = browser.new_context(viewport=SIZES[size], locale=locale)
    yield context
    context.close()


def _loads(page: Page) -> list[str]:
    """Count the page's loads from here on: a list that grows by one per load."""
    loads: list[str] = []
    page.on("load", lambda p: loads.append(p.url))
    return loads


def _check(page: Page, phase: str, name: str) -> list[str]:
    """The controls of ``phase`` not wholly in the window, described; a screenshot of it."""
    page.evaluate("window.scrollTo(0, 0)")
    settle(page)
    problems = []
    for selector in CONTROLS[phase]:
        assert page.locator(selector).count(), f"{name} {phase}: no {selector}"
        problems += [f"{name} {phase}: {p}" for p in outside(page, selector)]
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    page.screenshot(path=str(SHOTS / f"{name}-{phase}.png"))
    FELT_TOPS.setdefault(name, {})[phase] = page.locator(".felt").bounding_box()["y"]
    # ... and all its words show, none scrolled out of its box.
    overflow = page.locator("#status").evaluate("e => e.scrollHeight - e.clientHeight")
    assert overflow <= 1, f"{name} {phase}: the status hides {overflow}px"
    return problems


def _wait_for_turn(page: Page, move: str) -> None:
    expect(page.locator(f"#actions button[value={move}]")).to_be_visible(timeout=BEA_MS)


def _discard_least(page: Page, knock: bool) -> None:
    """Select the card that leaves the least deadwood, then knock or discard it."""
    picks = page.locator("#hand input[name=card]:not([disabled])")
    afters = [int(v) for v in picks.evaluate_all("els => els.map(e => e.dataset.after)")]
    picks.nth(afters.index(min(afters))).evaluate("e => e.closest('label').click()")
    page.locator(f"#actions button[value={'knock' if knock else 'discard'}]").click()


@pytest.mark.parametrize(
    "context",
    [(s, lang) for s in PHONES for lang in LANGUAGES],
    indirect=True,
    ids=[f"{s}-{lang}" for s in PHONES for lang in LANGUAGES],
)
def test_every_control_of_a_bea_match_is_in_the_window(
    context: BrowserContext, base: str, alice: User
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    print(f"screenshots in {SHOTS}")
    sign_in(context, base, alice)
    # Alice takes Q♣ and can knock at once; Bea holds nothing and only draws and discards.
    match = off_thread(lambda: start(alice, stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "2D")))
    page = context.new_page()
    page.goto(f"{base}/games/{match.public_id}/")
    loads = _loads(page)
    size = f"{page.viewport_size['width']}x{page.viewport_size['height']}"
    name = f"bea-{page.evaluate('document.documentElement.lang')}-{size}"
    problems = _check(page, "upcard", name)

    page.locator("#actions button[value=take_upcard]").click()
    _wait_for_turn(page, "knock")
    problems += _check(page, "discard", name)

    # K♦ goes, without knocking: Bea's turn, then Alice draws.
    page.locator("#hand .slot[data-code=KD] label").click()
    page.locator("#actions button[value=discard]").click()
    _wait_for_turn(page, "draw_stock")
    problems += _check(page, "draw", f"{name}")

    page.locator("#pile .stock .card-button").click()
    _wait_for_turn(page, "knock")
    _discard_least(page, knock=True)
    expect(page.locator("#actions button[value=next_hand]")).to_be_visible(timeout=BEA_MS)
    problems += _check(page, "hand_over", name)

    page.locator("#actions button[value=next_hand]").click()
    expect(page.locator("#hand .hand-cards > li")).to_have_count(10, timeout=BEA_MS)
    assert loads == [], f"the page loaded again: {loads}"
    # The status said four different things in as many lengths; the felt stayed put.
    tops = FELT_TOPS[name]
    print(name, tops)
    assert max(tops.values()) - min(tops.values()) <= 1, tops

    # The end of a match: Alice goes gin with 10♣ (25 + Bea's 80 passes the target of 50).
    won = off_thread(lambda: start(alice, stacked(ALICE_KNOCKS, BEA_LOOSE, "TC", "2D"), target=50))
    page.goto(f"{base}/games/{won.public_id}/")
    loads = _loads(page)
    page.locator("#actions button[value=take_upcard]").click()
    _wait_for_turn(page, "gin")
    page.locator("#hand .slot[data-code=KD] label").click()
    page.locator("#actions button[value=gin]").click()
    expect(page.locator("#after .new-match")).to_be_visible(timeout=BEA_MS)
    problems += _check(page, "match_over", name)
    assert loads == [], f"the page loaded again: {loads}"
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("context", [(s, "en-GB") for s in PHONES], indirect=True, ids=PHONES)
def test_the_move_clock_and_quick_messages_are_in_view_in_my_turn(
    context: BrowserContext, browser: Browser, base: str, alice: User, bob: User
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    match = off_thread(
        lambda: lobby_match(alice, bob, stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "2D"))
    )
    other = browser.new_context(viewport=SIZES["360x740"])
    try:
        sign_in(other, base, bob)
        other.new_page().goto(f"{base}/games/{match.public_id}/")
        sign_in(context, base, alice)
        page = context.new_page()
        page.goto(f"{base}/games/{match.public_id}/")
        # Both are here: the buttons come alive, and the clock runs for Alice.
        expect(page.locator("#actions fieldset.buttons")).to_be_enabled(timeout=BEA_MS)
        expect(page.locator("#clock .move-clock .countdown")).to_be_visible()
        page.evaluate("window.scrollTo(0, 0)")
        settle(page)
        size = f"{page.viewport_size['width']}x{page.viewport_size['height']}"
        page.screenshot(path=str(SHOTS / f"lobby-turn-{size}.png"))
        problems = []
        for selector in (
            "#clock .move-clock",
            "#quick-messages .quick-say > summary",
            "#actions button[value=take_upcard]",
            "#actions button[value=pass]",
            "#status .headline",
        ):
            assert page.locator(selector).count(), selector
            problems += outside(page, selector)
        # Opened, every phrase is in the window too.
        page.locator("#quick-messages .quick-say > summary").click()
        expect(page.locator("#quick-messages .quick-send button").first).to_be_visible()
        page.screenshot(path=str(SHOTS / f"lobby-phrases-{size}.png"))
        problems += outside(page, "#quick-messages .quick-send button")
        assert not problems, "\n".join(problems)

        # A quick message's bubble does not hide the status line.
        page.locator("#quick-messages .quick-send button").first.click()
        bubble = page.locator("#quick-bubble")
        expect(bubble).to_be_visible(timeout=BEA_MS)
        page.screenshot(path=str(SHOTS / f"lobby-bubble-{size}.png"))
        assert not _overlap(page, "#quick-bubble", "#status .headline")
    finally:
        other.close()


def _overlap(page: Page, a: str, b: str) -> bool:
    return bool(
        page.evaluate(
            """([a, b]) => {
                const r = document.querySelector(a).getBoundingClientRect();
                const s = document.querySelector(b).getBoundingClientRect();
                return r.left < s.right && s.left < r.right && r.top < s.bottom
                    && s.top < r.bottom;
            }""",
            [a, b],
        )
    )


def _bob_ran_out(alice: User, bob: User) -> str:
    """A lobby match where alice passed the upcard and bob let his move clock run out."""
    match = lobby_match(alice, bob, stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "2D"))
    services.submit(match, 0, {"type": "pass"}, match.version)
    Match.objects.filter(pk=match.pk).update(moved_at=timezone.now() - timedelta(minutes=10))
    return match.public_id


@pytest.mark.parametrize("context", [(s, "en-GB") for s in PHONES], indirect=True, ids=PHONES)
def test_the_claim_is_in_view_when_the_opponents_clock_ran_out(
    context: BrowserContext, browser: Browser, base: str, alice: User, bob: User
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    public_id = off_thread(_bob_ran_out, alice, bob)
    sign_in(context, base, alice)
    page = context.new_page()
    page.goto(f"{base}/games/{public_id}/")
    claim = page.locator("#clock form.claim button")
    expect(claim).to_be_visible(timeout=BEA_MS)
    page.evaluate("window.scrollTo(0, 0)")
    settle(page)
    size = f"{page.viewport_size['width']}x{page.viewport_size['height']}"
    page.screenshot(path=str(SHOTS / f"lobby-claim-{size}.png"))
    problems = outside(page, "#clock form.claim button") + outside(page, "#clock .claim-reason")
    assert not problems, "\n".join(problems)
