"""A private table in real Chromium over a real daphne: a guest host opens it from the home
page, a second browser takes the seat through the invitation link, both play a few moves live,
and a third browser finds the table full."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from games.models import Match, PrivateTable
from tests.browser.conftest import phone_contexts
from tests.browser.test_live_play import LIVE_MS, _headline, _navigations, _play_one_move

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def contexts(browser: Browser, base: str) -> Iterator[list[BrowserContext]]:
    """Host, guest and a third visitor."""
    with phone_contexts(browser, 3) as made:
        yield made


def _whose_turn(pages: dict[str, Page]) -> str | None:
    deadline = time.monotonic() + LIVE_MS / 1000
    while time.monotonic() < deadline:
        for name, page in pages.items():
            if _headline(page).startswith("Your turn"):
                return name
        time.sleep(0.1)
    return None


@pytest.mark.timeout(300)
def test_a_guest_hosts_a_friend_plays_live_and_a_third_browser_finds_it_full(
    base: str, contexts: list[BrowserContext]
) -> None:
    host = contexts[0].new_page()
    host.goto(base + "/")
    host.get_by_role("link", name="Play with a friend").click()
    host.fill("input[name=name]", "Hal")
    host.locator("select[name=target]").select_option("50")
    host.get_by_role("button", name="Open the table").click()
    host.wait_for_url(re.compile(re.escape(base) + r"/games/t/[\w-]+/$"))
    invite = host.locator("#invite-url").input_value()
    assert invite == host.url
    table = PrivateTable.objects.get()
    assert table.token in invite
    expect(host.locator("#live .presence")).to_contain_text("has not opened the link yet")
    # The host's page sent its seed for the deal; the deal waits for the friend's, and says
    # why (docs/fairness.md). No card is dealt meanwhile.
    expect(host.locator("#status .headline")).to_contain_text("Waiting for your friend")
    expect(host.locator("#hand")).to_be_hidden()
    host.get_by_role("button", name="Copy link").click()
    expect(host.locator("button[data-copy]")).not_to_have_text("Copy link")

    # The friend follows the link in another browser, picks a name and takes the seat.
    friend = contexts[1].new_page()
    friend.goto(invite)
    expect(friend.locator("h1")).to_contain_text("Hal invites you")
    friend.fill("input[name=name]", "Dora")
    friend.get_by_role("button", name="Take the seat").click()
    friend.wait_for_url(invite)
    expect(friend.locator("#hand")).to_be_visible()
    expect(friend.locator("#live .presence")).to_contain_text("Hal: connected", timeout=LIVE_MS)
    # The host's page learns of it live: the name, the presence, and the buttons come alive.
    expect(host.locator("#live .presence")).to_contain_text("Dora: connected", timeout=LIVE_MS)
    expect(host.locator("#actions .blocked")).to_have_count(0, timeout=LIVE_MS)
    expect(host.locator("#opponent")).to_contain_text("Dora")

    # A few moves, each page following the other live without reloading.
    pages = {"host": host, "friend": friend}
    loads = {name: _navigations(page) for name, page in pages.items()}
    match = Match.objects.get(table=table)
    for _ in range(4):
        turn = _whose_turn(pages)
        assert turn is not None, "nobody's turn"
        _play_one_move(pages[turn], _headline(pages[turn]))
    match.refresh_from_db()
    assert match.version >= 4
    assert {name: _navigations(page) for name, page in pages.items()} == loads

    # Reopening the link in the same browser returns the friend to the seat: the same table,
    # from the same side, with the hand in play or, if a quick knock ended it within those
    # moves, the hand's result.
    friend.goto(invite)
    expect(friend.locator("#scores")).to_contain_text("You")
    expect(friend.locator("#scores")).to_contain_text("Hal")
    expect(friend.locator("#hand:visible, #result:visible").first).to_be_visible()

    # A third browser finds the table full (the host allowed no watchers).
    third = contexts[2].new_page()
    response = third.goto(invite)
    assert response is not None and response.status == 403
    expect(third.locator("h1")).to_have_text("This table is full")
    assert third.locator("#hand").count() == 0
