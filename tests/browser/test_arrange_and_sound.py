"""Arranging the hand and the sound toggle, in real Chromium.

Drag a card (SortableJS) and reload: the order stays. Sort cycles melds first, by suit, by
rank. Shift+arrow moves the focused card. Sound is off until turned on; the choice outlives a
reload, and a new browser of the same account starts from it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.browser.table_helpers import SIZES, sign_in, table_in

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    context = browser.new_context(viewport=SIZES["360x740"], has_touch=False)
    yield context
    context.close()


def order(page: Page) -> list[str]:
    return page.locator("#hand .hand-cards > li").evaluate_all(
        "els => els.map(e => e.dataset.code)"
    )


def open_table(context: BrowserContext, base: str, user: User, phase: str) -> Page:
    sign_in(context, base, user)
    match = table_in(user, phase)
    page = context.new_page()
    page.goto(f"{base}/games/{match.public_id}/")
    page.wait_for_function(
        "window.Sortable !== undefined && !!document.querySelector('[data-sortable]')"
    )
    return page


def test_it_keeps_a_dragged_card_where_it_was_dropped(
    context: BrowserContext, base: str, alice: User
):
    page = open_table(context, base, alice, "discard")
    before = order(page)
    first = page.locator("#hand .hand-cards > li").first.bounding_box()
    last = page.locator("#hand .hand-cards > li").last.bounding_box()
    assert first and last
    with page.expect_response(lambda r: r.url.endswith("/order") and r.status == 204):
        page.mouse.move(first["x"] + 8, first["y"] + 20)
        page.mouse.down()
        for step in range(1, 16):
            x = first["x"] + 8 + (last["x"] + last["width"] - 4 - first["x"] - 8) * step / 15
            page.mouse.move(x, last["y"] + 20)
        page.mouse.up()
    after = order(page)
    assert after != before and sorted(after) == sorted(before)
    assert after[-1] == before[0] or after.index(before[0]) > 0
    page.reload()
    assert order(page) == after


def test_it_cycles_the_sort_and_keeps_it(context: BrowserContext, base: str, alice: User):
    page = open_table(context, base, alice, "discard")
    sort = page.locator("#hand button.sort")
    suits = "CDHS"
    ranks = "A23456789TJQK"
    expect(sort).to_have_attribute("data-sort", "melds")
    sort.click()
    expect(page.locator("#hand button.sort")).to_have_attribute("data-sort", "suit")
    cards = order(page)
    assert cards == sorted(cards, key=lambda c: (suits.index(c[1]), ranks.index(c[0])))
    page.locator("#hand button.sort").click()
    expect(page.locator("#hand button.sort")).to_have_attribute("data-sort", "rank")
    cards = order(page)
    assert cards == sorted(cards, key=lambda c: (ranks.index(c[0]), suits.index(c[1])))
    page.reload()
    assert order(page) == cards
    page.locator("#hand button.sort").click()
    expect(page.locator("#hand button.sort")).to_have_attribute("data-sort", "melds")


def test_it_moves_the_focused_card_with_shift_and_an_arrow(
    context: BrowserContext, base: str, alice: User
):
    page = open_table(context, base, alice, "draw")
    before = order(page)
    page.locator("#hand .hand-cards > li").first.focus()
    with page.expect_response(lambda r: r.url.endswith("/order")):
        page.keyboard.press("Shift+ArrowRight")
    assert order(page) == [before[1], before[0], *before[2:]]
    page.reload()
    assert order(page) == [before[1], before[0], *before[2:]]


def test_it_marks_the_card_just_drawn_until_the_discard(
    context: BrowserContext, base: str, alice: User
):
    page = open_table(context, base, alice, "draw")
    page.locator("#actions button[value=draw_stock]").click()
    drawn = page.locator("#hand .card.just-drawn")
    expect(drawn).to_have_count(1)
    code = drawn.get_attribute("data-code")
    page.locator(f"#hand input[value='{code}']").evaluate("e => e.closest('label').click()")
    page.locator("#actions button[value=discard]").click()
    expect(page.locator("#hand .card.just-drawn")).to_have_count(0)
    expect(page.locator(f"#pile .discard .card[data-code='{code}']")).to_have_count(1)


def test_sound_is_off_until_turned_on_and_remembered(browser: Browser, base: str, alice: User):
    first = browser.new_context(viewport=SIZES["390x844"])
    try:
        page = open_table(first, base, alice, "draw")
        toggle = page.locator("#sound-toggle")
        expect(toggle).to_have_attribute("aria-pressed", "false")
        # A toggle: its name says what it is, aria-pressed (and its switch) whether it is on.
        expect(toggle).to_have_accessible_name("Sound")
        assert page.evaluate("window.ginSound.enabled()") is False
        # Drawing makes no sound while it is off.
        page.locator("#actions button[value=draw_stock]").click()
        expect(page.locator("#hand .card.just-drawn")).to_have_count(1)
        assert page.evaluate("window.ginSound.played.length") == 0
        with page.expect_response(lambda r: r.url.endswith("/settings/sound")):
            toggle.click()
        expect(toggle).to_have_attribute("aria-pressed", "true")
        expect(toggle).to_have_accessible_name("Sound")
        # Now the discard and Bea's answer make their sounds, and so does my next turn.
        code = page.locator("#hand .card.just-drawn").get_attribute("data-code")
        page.locator(f"#hand input[value='{code}']").evaluate("e => e.closest('label').click()")
        page.evaluate("window.ginSound.played.length = 0")  # the toggle played a sample
        page.locator("#actions button[value=discard]").click()
        page.wait_for_function("window.ginSound.played.includes('turn')", timeout=15_000)
        played = page.evaluate("window.ginSound.played")
        assert played[0] == "discard" and "draw" in played, played
        page.reload()
        expect(page.locator("#sound-toggle")).to_have_attribute("aria-pressed", "true")
    finally:
        first.close()
    # Another browser of the same account starts from the account's choice.
    second = browser.new_context(viewport=SIZES["1280x800"])
    try:
        page = open_table(second, base, alice, "discard")
        expect(page.locator("#sound-toggle")).to_have_attribute("aria-pressed", "true")
    finally:
        second.close()


def test_a_picked_card_stays_picked_when_the_hand_is_sorted(
    context: BrowserContext, base: str, alice: User
):
    page = open_table(context, base, alice, "discard")
    code = order(page)[3]
    page.locator(f"#hand input[value='{code}']").evaluate("e => e.closest('label').click()")
    discard = page.locator("#actions button[value=discard]")
    expect(discard).to_be_enabled()
    # Sorting redraws the hand: the card is still the one picked, and Discard still works.
    page.locator("#hand button.sort").click()
    expect(page.locator("#hand button.sort")).to_have_attribute("data-sort", "suit")
    expect(page.locator(f"#hand input[value='{code}']")).to_be_checked()
    expect(discard).to_be_enabled()
    discard.click()
    expect(page.locator(f"#pile .discard .card[data-code='{code}']")).to_have_count(1)


def test_a_card_tapped_while_the_draw_is_on_its_way_is_picked_in_the_new_hand(
    context: BrowserContext, base: str, alice: User
):
    page = open_table(context, base, alice, "draw")
    code = order(page)[2]
    # Draw, and tap a card before the answer can arrive (one task of the page's own): the hand
    # shown has nothing to pick yet, the hand that comes with the drawn card has.
    page.evaluate(
        """code => {
            document.querySelector('#actions button[value=draw_stock]').click();
            document.querySelector(`#hand li[data-code="${code}"]`).click();
        }""",
        code,
    )
    expect(page.locator("#hand .card.just-drawn")).to_have_count(1)
    expect(page.locator(f"#hand input[value='{code}']")).to_be_checked()
    expect(page.locator("#actions button[value=discard]")).to_be_enabled()
