"""One-gesture moves in real Chromium, with a mouse and on a touch screen, at 360x740 and
1280x800 (issue 23, seed 004): tap the stock or the discard pile to draw (the upcard too),
double-tap a card or drag it onto the discard pile to discard it, Enter or Space then Enter
or D with the keyboard. The card just taken from the pile refuses, with the page's reason.

The table is Alice's against Bea from a stacked deck (tests/browser/table_helpers.py): at the
upcard offer Q♣ is turned up; in the discard phase she has just taken it, so it may not go.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.table_helpers import ARTIFACTS, SIZES, sign_in, table_in

if TYPE_CHECKING:
    from collections.abc import Iterator

    from django.contrib.auth.models import User
    from playwright.sync_api import BrowserContext, Locator

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WAYS = [
    pytest.param(size, touch, id=f"{size}-{'touch' if touch else 'mouse'}")
    for size in ("360x740", "1280x800")
    for touch in (False, True)
]
TAKEN = "QC"  # the upcard, just taken in the discard phase
# A point of a card in sight even where the hand overlaps like a fan (its index corner).
CORNER = {"x": 7, "y": 12}
REFUSAL = "You took Q♣ from the discard pile: it cannot go back this turn."

Opener = Callable[[str, str, bool], Page]


@pytest.fixture
def open_table(browser: Browser, base: str, alice: User, quick_bea: None) -> Iterator[Opener]:
    """Alice's table at the start of a phase, in a browser of the given size, touch or not."""
    made: list[BrowserContext] = []

    def opener(phase: str, size: str, touch: bool) -> Page:
        context = browser.new_context(viewport=SIZES[size], has_touch=touch)
        made.append(context)
        sign_in(context, base, alice)
        match = table_in(alice, phase)
        page = context.new_page()
        page.goto(f"{base}/games/{match.public_id}/")
        page.wait_for_function("window.Sortable !== undefined && window.htmx !== undefined")
        page.wait_for_selector("#hand .hand-cards[data-sortable]", state="attached")
        return page

    yield opener
    for context in made:
        context.close()
    time.sleep(0.5)  # as phone_contexts: the server handles the closed sockets first


def press(target: Locator, touch: bool, **where: dict[str, float]) -> None:
    if touch:
        target.tap(**where)
    else:
        target.click(**where)


def card(page: Page, code: str) -> Locator:
    return page.locator(f'#hand li[data-code="{code}"]')


def hand(page: Page) -> list[str]:
    return page.locator("#hand .hand-cards > li").evaluate_all(
        "els => els.map(e => e.dataset.code)"
    )


def pile_top(page: Page) -> Locator:
    return page.locator("#pile .discard .card[data-code]")


def pile(page: Page) -> Locator:
    """The discard pile's place: its top card, or the empty space when it has none."""
    return page.locator("#pile .discard .card")


def discarded_king_of_diamonds(page: Page) -> None:
    """K♦ went: the hand's log says so (Bea may have covered it on the pile since)."""
    expect(page.locator("#history .moves")).to_contain_text("You discarded K♦")
    expect(card(page, "KD")).to_have_count(0)


def double_tap(target: Locator, touch: bool) -> None:
    # At the card's corner, the part a fanned hand leaves in sight; force: the card just taken
    # is in a disabled choice, which Playwright would not press, though a player can.
    # The two taps of a finger go straight to the screen, one after the other: a locator's tap
    # waits for the card each time, and on a busy machine the second came after the half
    # second a double tap has.
    if touch:
        target.scroll_into_view_if_needed()
        box = target.bounding_box()
        assert box is not None
        x, y = box["x"] + CORNER["x"], box["y"] + CORNER["y"]
        target.page.touchscreen.tap(x, y)
        target.page.touchscreen.tap(x, y)
    else:
        target.dblclick(position=CORNER, force=True)


def drag(
    page: Page,
    source: Locator,
    target: Locator,
    touch: bool,
    over: Callable[[], None] = lambda: None,
) -> None:
    """Drag ``source`` onto ``target``: a mouse drag, or a finger held until SortableJS picks
    the card up (its hold delay on touch), then moved and lifted (``over`` runs just before
    it is let go). Not while the cards still
    slide into place after the last drag: SortableJS ignores a press on a moving card."""
    page.wait_for_function(
        "() => ![...document.querySelectorAll('#hand li')].some(li => li.animated)"
    )
    # Nor while a drawn card still flies into the hand (motion.js), which on a busy machine
    # outlasts the draw's answer: a finger lands where the card is, not where it will be.
    page.wait_for_function(
        """() => !document.getAnimations().some(a => a.playState === 'running'
            && a.effect && a.effect.getTiming().iterations !== Infinity
            && a.effect.target && a.effect.target.closest && a.effect.target.closest('#hand'))"""
    )
    if not touch:
        # Not at the screen's edge, where SortableJS scrolls the page as the card moves (a
        # mouse pressed near the bottom of a phone's screen scrolled the pile out of view).
        source.evaluate("el => el.scrollIntoView({block: 'center'})")
    start, end = source.bounding_box(), target.bounding_box()
    assert start and end
    x0, y0 = start["x"] + CORNER["x"], start["y"] + CORNER["y"]
    x1, y1 = end["x"] + end["width"] / 2, end["y"] + end["height"] / 2
    steps = [(x0 + (x1 - x0) * i / 12, y0 + (y1 - y0) * i / 12) for i in range(1, 13)]
    if not touch:
        page.mouse.move(x0, y0)
        page.mouse.down()
        page.wait_for_selector("#hand .sortable-chosen")
        for x, y in steps:
            page.mouse.move(x, y)
        over()
        page.mouse.up()
        return
    cdp = page.context.new_cdp_session(page)

    def touch_event(kind: str, points: list[tuple[float, float]]) -> None:
        touch_points = [{"x": x, "y": y} for x, y in points]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": touch_points})

    touch_event("touchStart", [(x0, y0)])
    page.wait_for_selector("#hand .sortable-chosen")
    for point in steps:
        touch_event("touchMove", [point])
    over()
    touch_event("touchEnd", [])
    cdp.detach()


@pytest.mark.parametrize(("size", "touch"), WAYS)
def test_a_tap_on_the_pile_draws_at_every_phase(open_table: Opener, size: str, touch: bool):
    page = open_table("upcard", size, touch)
    upcard = page.locator("#pile .discard button[value=take_upcard]")
    box = upcard.bounding_box()
    assert box and box["width"] >= 44 and box["height"] >= 44
    press(upcard, touch)
    expect(card(page, TAKEN)).to_have_count(1)
    expect(page.locator("#hand li[data-code]")).to_have_count(11)

    page = open_table("draw", size, touch)
    stock = page.locator("#pile .stock button[value=draw_stock]")
    box = stock.bounding_box()
    assert box and box["width"] >= 44 and box["height"] >= 44
    press(stock, touch)
    expect(page.locator("#hand li[data-code]")).to_have_count(11)
    expect(page.locator("#hand .card.just-drawn")).to_have_count(1)

    page = open_table("draw", size, touch)
    top = pile_top(page).get_attribute("data-code")
    press(page.locator("#pile .discard button[value=draw_discard]"), touch)
    expect(card(page, str(top))).to_have_count(1)
    expect(page.locator("#hand li[data-code]")).to_have_count(11)


@pytest.mark.parametrize(("size", "touch"), WAYS)
def test_a_double_tap_discards_a_card_and_the_card_just_taken_refuses(
    open_table: Opener, size: str, touch: bool
):
    page = open_table("discard", size, touch)
    double_tap(card(page, TAKEN).locator(".card"), touch)
    expect(page.locator("#notice")).to_have_text(REFUSAL)
    expect(page.locator("#hand li[data-code]")).to_have_count(11)
    ARTIFACTS.mkdir(exist_ok=True)
    way = "touch" if touch else "mouse"
    page.screenshot(path=str(ARTIFACTS / f"gesture-refused-{way}-{size}.png"))
    before = [c for c in hand(page) if c != "KD"]
    double_tap(card(page, "KD").locator(".card"), touch)
    discarded_king_of_diamonds(page)
    assert hand(page) == before


@pytest.mark.parametrize(("size", "touch"), WAYS)
def test_a_card_dragged_onto_the_pile_is_discarded_and_elsewhere_reordered(
    open_table: Opener, size: str, touch: bool
):
    page = open_table("discard", size, touch)
    order = hand(page)
    drag(page, card(page, TAKEN), pile(page), touch)
    expect(page.locator("#notice")).to_have_text(REFUSAL)
    expect(page.locator("#hand li[data-code]")).to_have_count(11)
    assert hand(page) == order  # back in its place, and no new order saved

    # Within the hand a drag still arranges it, on touch too.
    first, last = page.locator("#hand .hand-cards > li").first, page.locator("#hand li").last
    with page.expect_response(lambda r: r.url.endswith("/order") and r.status == 204):
        drag(page, first, last, touch)
    arranged = hand(page)
    assert arranged != order and sorted(arranged) == sorted(order)
    # A tap after a drag still selects a card, as any tap does.
    press(card(page, "AS").locator(".card"), touch, position=CORNER)
    expect(page.locator('#hand input[value="AS"]')).to_be_checked()

    def over_the_pile() -> None:
        expect(page.locator("#pile .discard.drop-target")).to_have_count(1)
        way = "touch" if touch else "mouse"
        page.screenshot(path=str(ARTIFACTS / f"gesture-drag-over-pile-{way}-{size}.png"))

    drag(page, card(page, "KD"), pile(page), touch, over_the_pile)
    discarded_king_of_diamonds(page)
    assert hand(page) == [c for c in arranged if c != "KD"]


@pytest.mark.parametrize("size", ["360x740", "1280x800"])
@pytest.mark.parametrize("keys", [("Enter", "Enter"), ("Space", "d")])
def test_the_keyboard_selects_then_discards_the_focused_card(
    open_table: Opener, size: str, keys: tuple[str, str]
):
    page = open_table("discard", size, False)
    radio = page.locator('#hand input[name=card][value="KD"]')
    radio.focus()
    page.keyboard.press(keys[0])
    expect(radio).to_be_checked()
    expect(page.locator("#actions button[value=discard]")).to_be_enabled()
    expect(card(page, "KD")).to_have_count(1)  # selected, not yet discarded
    page.keyboard.press(keys[1])
    discarded_king_of_diamonds(page)
    # Focus stays in the hand, on a card, rather than going back to the page's top.
    expect(page.locator("#hand li[data-code]").first).to_be_attached()
    page.wait_for_function("document.activeElement.closest('#hand li[data-code]') !== null")
