"""Keyboard focus stays on the card or button it was on after every update, an htmx answer or
a socket push, in real Chromium (issue 23, defect 6): it never falls back to the page's top."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from games import services
from tests.browser.conftest import PHONE, phone_contexts
from tests.browser.table_helpers import off_thread, sign_in, table_in
from tests.browser.turns import version
from tests.games.conftest import ALICE_KNOCKS, BEA_LOOSE, stacked
from tests.games.live_helpers import lobby_match

if TYPE_CHECKING:
    from collections.abc import Iterator

    from django.contrib.auth.models import User

    from games.models import Match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    with phone_contexts(browser, 1) as (made,):
        yield made


def open_table(context: BrowserContext, base: str, user: User, match: Match) -> Page:
    sign_in(context, base, user)
    page = context.new_page()
    page.goto(f"{base}/games/{match.public_id}/")
    page.wait_for_function("window.htmx !== undefined")
    return page


def focused(page: Page, selector: str) -> None:
    """Focus is on an element matching ``selector`` (not on the page, not on nothing)."""
    page.wait_for_function("s => document.activeElement.matches(s)", arg=selector)


def move_off_the_page(match: Match, seat: int, action: dict[str, object]) -> None:
    def submit() -> None:
        match.refresh_from_db()
        services.submit(match, seat, action, match.version)

    off_thread(submit)


def test_it_keeps_focus_on_a_button_its_answer_replaced(
    context: BrowserContext, base: str, alice: User, quick_bea: None
):
    page = open_table(context, base, alice, table_in(alice, "draw"))
    sort = page.locator("#hand button.sort")
    sort.focus()
    before = sort.get_attribute("data-sort")
    page.keyboard.press("Enter")
    expect(page.locator("#hand button.sort")).not_to_have_attribute("data-sort", str(before))
    focused(page, "#hand button.sort")
    page.locator("#actions a[href$='/hint']").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#hint")).to_be_visible()
    focused(page, "#actions a[href$='/hint']")
    # Drawing with the keyboard: the Draw button is gone, focus goes to the card drawn.
    page.locator("#actions button[value=draw_stock]").focus()
    page.keyboard.press("Enter")
    focused(page, "#hand li:has(.just-drawn) input[name=card]")


def test_it_keeps_focus_through_pushes_of_bea_s_moves(
    context: BrowserContext, base: str, alice: User, quick_bea: None
):
    match = table_in(alice, "discard")
    page = open_table(context, base, alice, match)
    shown = version(page)
    page.locator("#actions a.danger").focus()  # Resign
    # Alice's discard made elsewhere (another tab): this page learns of it, and of Bea's turn
    # after it, from the socket; each push replaces the region holding the focused link.
    move_off_the_page(match, 0, {"type": "discard", "card": "KD"})
    expect(page.locator("#actions button[value=draw_stock]")).to_be_visible()
    assert version(page) >= shown + 3
    focused(page, "#actions a.danger")


def test_it_keeps_focus_through_pushes_of_a_person_s_moves(
    context: BrowserContext, base: str, alice: User, bob: User
):
    # A stacked deck: dealt at once, with no seeds to wait for (bob has no page to send his).
    match = off_thread(lobby_match, alice, bob, stacked(ALICE_KNOCKS, BEA_LOOSE, "QC"))
    page = open_table(context, base, alice, match)
    restart = "#live button[value=restart]"
    page.locator(restart).focus()
    for seat in (0, 1):
        shown = version(page)
        move_off_the_page(match, seat, {"type": "pass"})
        page.wait_for_function(
            "v => +document.getElementById('table-version').dataset.version > v", arg=shown
        )
        focused(page, restart)
    assert page.viewport_size == PHONE
