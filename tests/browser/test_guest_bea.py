"""A newcomer in real Chromium: one click plays Bea without an account, a whole hand with the
first-match tips showing (once), a reload mid-hand, then sign-up from the same browser finds the
match and its statistics on the new profile; another browser sees nothing of it."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Error, Page, expect

from games.models import HandRecord, Match

from .conftest import PHONE, phone_contexts
from .test_play_bea import _play_one_move, _state, _wait_for_my_move

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a long pass phrase for a newcomer"


def _goto(page: Page, url: str) -> None:
    """Navigate, once more if the table page was reloading itself just then (a refresh it
    may have scheduled while Bea was thinking aborts the first navigation)."""
    for attempt in range(3):
        try:
            page.goto(url)
            return
        except Error as error:
            if "ERR_ABORTED" not in str(error) or attempt == 2:
                raise
            page.wait_for_timeout(500)


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    # Closed with the wait of phone_contexts: the table's socket is still open when the test
    # ends, and a database flushed while the server handles its close deadlocked once.
    with phone_contexts(browser, 1) as (made,):
        yield made


@pytest.mark.timeout(600)
def test_a_guest_plays_a_hand_reloads_and_keeps_it_by_signing_up(
    browser: Browser, context: BrowserContext, base: str, quick_bea: None
) -> None:
    page = context.new_page()
    page.goto(base + "/")
    page.get_by_role("button", name="Play Bea now").click()
    page.wait_for_url(re.compile(r".*/games/[^/]+/$"))
    page.wait_for_function("window.htmx !== undefined")
    table_url = page.url
    match = Match.objects.get()
    assert match.seats.get(number=0).user is None
    # The guest key is a cookie no script can read.
    cookies = {c["name"]: c for c in context.cookies()}
    assert cookies["gin_guest"]["httpOnly"]
    assert "gin_guest" not in page.evaluate("document.cookie")

    # The tips show on this first match, beside the table: the first move is made with them.
    tips = page.locator("#tips")
    expect(tips).to_be_visible()
    headline = _wait_for_my_move(page)
    _play_one_move(page, headline)
    expect(tips).to_be_visible()

    reloaded = False
    moves = 1
    while True:
        headline = _wait_for_my_move(page)
        if not headline.startswith("Your turn"):
            break
        if not reloaded and "discard" in headline:
            before = _state(page)
            page.reload()
            assert page.url == table_url
            assert _state(page) == before
            # Once: after the reload the tips are gone.
            expect(page.locator("#tips")).to_have_count(0)
            reloaded = True
        _play_one_move(page, headline)
        moves += 1
        assert moves < 80, "the hand should have ended by now"
    expect(page.locator("#result")).to_contain_text("Hand 1:")
    assert reloaded or moves < 4
    scores = page.locator("#scores").inner_text()

    # Another browser: no seat, no cards, nothing to press.
    stranger = browser.new_context(viewport=PHONE)
    try:
        other = stranger.new_page()
        response = other.goto(table_url)
        assert response is not None and response.status == 404
        expect(other.locator("#hand")).to_have_count(0)
    finally:
        stranger.close()

    # Sign up from this browser: the match and its statistics are the new account's.
    _goto(page, base + "/accounts/signup/")
    page.fill("input[name=username]", "newcomer")
    page.fill("input[name=display_name]", "Newcomer")
    page.fill("input[name=email]", "newcomer@example.com")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.locator("form button[type=submit]").last.click()
    page.wait_for_url(base + "/")
    expect(page.locator("#resume")).to_contain_text("Bea")
    _goto(page, base + "/players/newcomer/")
    row = page.locator(f'#player-matches tr[data-match="{match.public_id}"]')
    expect(row).to_be_visible()
    expect(row).to_contain_text("Bea")
    hands_won = HandRecord.objects.filter(match=match, winner_seat=0).count()
    expect(page.locator('[data-stat="hands_won"]')).to_have_text(str(hands_won))
    # The row opens the table, as the account's now.
    row.get_by_role("link", name="In progress: continue").click()
    page.wait_for_url(table_url)
    expect(page.locator("#scores")).to_have_text(scores)
