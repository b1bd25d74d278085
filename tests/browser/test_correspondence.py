"""Correspondence in real Chromium at a phone's size (360x740): the lobby's "your turn" list,
the table's days clock (no countdown), and the opponent's list updated live when a turn
changes hands."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import BrowserContext, expect

from tests.browser.conftest import PHONE, sign_in_to_lobby
from tests.lobby.correspondence_helpers import correspondence_match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
LIVE_MS = 5_000


def test_a_correspondence_match_from_the_lobbys_list_to_the_table_and_back(
    base: str, contexts: list[BrowserContext], alice: User, bob: User, password: str
) -> None:
    # Made off this thread: Playwright keeps an event loop running in it, where the lobby's
    # pushes after the commit cannot be sent synchronously.
    with ThreadPoolExecutor(1) as pool:
        match = pool.submit(correspondence_match, alice, bob, 3).result()  # alice to move
    bob_page = sign_in_to_lobby(contexts[1], base, "bob", password)
    bob_turns = bob_page.locator("#lobby-turns")
    expect(bob_turns).to_contain_text("No correspondence match is waiting for your move.")
    expect(bob_turns).to_contain_text("1 correspondence match is waiting for your opponent.")

    alice_page = sign_in_to_lobby(contexts[0], base, "alice", password)
    turns = alice_page.locator("#lobby-turns")
    row = turns.locator(f'[data-turn="{match.public_id}"]')
    expect(row).to_contain_text("Against bob: Standard to 100.")
    expect(row).to_contain_text(" left")
    # The list comes first in the lobby, in the first screen of a phone.
    # (Read in the page, waiting: a lobby push may be swapping the region in at this moment.)
    alice_page.wait_for_function(
        "h => { const e = document.getElementById('lobby-turns');"
        " return e !== null && e.getBoundingClientRect().top < h; }",
        arg=PHONE["height"],
    )
    ARTIFACTS.mkdir(exist_ok=True)
    alice_page.screenshot(path=str(ARTIFACTS / "correspondence-lobby-360x740.png"))

    row.get_by_role("link", name="Your move").click()
    alice_page.wait_for_url(f"{base}/games/{match.public_id}/")
    clock = alice_page.locator(".correspondence-clock")
    expect(clock).to_contain_text("Your move: ")
    expect(clock).to_contain_text("left, until")
    expect(clock).to_contain_text("3 days per move")
    expect(alice_page.locator("time.countdown")).to_have_count(0)
    assert alice_page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    alice_page.screenshot(path=str(ARTIFACTS / "correspondence-table-360x740.png"))

    # alice passes the upcard: bob's turn; his lobby's list shows it without a reload.
    alice_page.get_by_role("button", name="Pass", exact=True).click()
    expect(clock).to_contain_text("bob must move by", timeout=LIVE_MS)
    expect(bob_turns.locator(f'[data-turn="{match.public_id}"]')).to_contain_text(
        "Against alice", timeout=LIVE_MS
    )
