"""Find a player, follow them, see them come online in the lobby, challenge them in one
click, and say "Good luck" at the table: in real Chromium, two browsers, pushed live."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.conftest import sign_in_to_lobby

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LIVE_MS = 5_000


def _mark(page: Page) -> None:
    """Tag the loaded document: a page load in between would lose the tag."""
    page.evaluate("window.__same_page = true")


def _same_page(page: Page) -> bool:
    return bool(page.evaluate("window.__same_page === true"))


def test_a_follow_shows_the_friend_online_and_a_quick_message_reaches_the_table(
    base: str, contexts: list[BrowserContext], alice: User, bob: User, password: str
) -> None:
    alice_page = sign_in_to_lobby(contexts[0], base, "alice", password)

    # Find bob by name (a Cyrillic о in the search), open his page, follow him.
    alice_page.fill("#player-search-q", "b\u043eb")
    alice_page.locator(".player-search button[type=submit]").click()
    found = alice_page.locator('#search-results [data-player="bob"] a')
    expect(found).to_be_visible(timeout=LIVE_MS)
    found.click()
    alice_page.wait_for_url(base + "/players/bob/")
    alice_page.get_by_role("button", name="Follow bob").click()
    expect(alice_page.get_by_role("button", name="Unfollow bob")).to_be_visible()

    # Back in the lobby bob is a friend, away; he signs in and shows up online, pushed.
    alice_page.goto(base + "/lobby/")
    friend = alice_page.locator('#lobby-friends [data-friend="bob"]')
    expect(friend).to_contain_text("away", timeout=LIVE_MS)
    alice_page.wait_for_function("document.querySelector('#lobby-players [data-player]')")
    _mark(alice_page)
    bob_page = sign_in_to_lobby(contexts[1], base, "bob", password)
    expect(friend).to_contain_text("online", timeout=LIVE_MS)
    assert _same_page(alice_page)

    # One click challenges him; he accepts; both land at the table.
    friend.get_by_role("button", name="Challenge bob").click()
    incoming = bob_page.locator("#lobby-challenges [data-incoming]")
    expect(incoming).to_contain_text("alice challenges you: Standard to 100", timeout=LIVE_MS)
    incoming.get_by_role("button", name="Accept").click()
    table = re.compile(re.escape(base) + r"/games/[\w-]+/$")
    bob_page.wait_for_url(table, timeout=LIVE_MS)
    alice_page.wait_for_url(table, timeout=LIVE_MS)

    # bob says "Good luck": the bubble appears at alice's table without a page load.
    # Alice's table socket is in: bob's page shows her connected.
    expect(bob_page.locator("#live .presence")).to_contain_text("alice: connected", timeout=LIVE_MS)
    expect(alice_page.locator("#quick-messages")).to_be_visible()
    _mark(alice_page)
    # On a phone the phrases fold behind their summary (issue 41).
    bob_page.locator("#quick-messages .quick-say > summary").click()
    bob_page.locator('#quick-messages button[value="good_luck"]').click()
    bubble = alice_page.locator("#quick-bubble")
    expect(bubble).to_be_visible(timeout=LIVE_MS)
    expect(bubble).to_contain_text("bob: Good luck")
    # A tap puts the bubble away before its time is up (it covers part of a phone's felt).
    # Dispatched rather than clicked, and read at once: a click waits for the bubble to be
    # visible, and on a loaded machine its five seconds may be up by then.
    bubble.dispatch_event("click")
    assert alice_page.evaluate("document.getElementById('quick-bubble').hidden")
    expect(bob_page.locator("#quick-bubble")).to_contain_text("You: Good luck", timeout=LIVE_MS)
    assert _same_page(alice_page)
