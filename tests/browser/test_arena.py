"""An arena in real Chromium, alice in English and bob in German: both join from the arena's
page and land at the same table; the first match ends and both arena pages show the standings
move (pushed, in each reader's language); the next pairing sends both pages to the next table;
the second match ends and the standings move again. The cards of each match are played through
games' door (``tests.lobby.arena_helpers.win``): the table's own clicks have their own tests."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import BrowserContext, Page, expect

from lobby.arena import service
from tests.browser.conftest import sign_in_to_lobby
from tests.lobby.arena_helpers import arena, match_of, win

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
LIVE_MS = 5_000


def _loads(page: Page) -> list[str]:
    loaded: list[str] = []
    page.on("load", lambda: loaded.append(page.url))
    return loaded


def _row(page: Page, username: str) -> str:
    return page.locator(f"#arena-standings tr[data-player={username}]").inner_text()


def test_two_players_play_two_arena_matches_and_see_the_standings_move(
    base: str, contexts: list[BrowserContext], alice: User, bob: User, password: str
) -> None:
    bob.profile.language = "de"
    bob.profile.save()
    made = arena(target=50)
    url = f"{base}/arenas/{made.public_id}/"
    table = re.compile(re.escape(base) + r"/games/[\w-]+/$")
    alice_page = sign_in_to_lobby(contexts[0], base, "alice", password)
    bob_page = sign_in_to_lobby(contexts[1], base, "bob", password)
    alice_loads, bob_loads = _loads(alice_page), _loads(bob_page)

    alice_page.goto(url)
    bob_page.goto(url)
    expect(bob_page.locator("#arena-head")).to_contain_text("Verbleibende Zeit:")
    alice_page.get_by_role("button", name="Join the arena").click()
    expect(alice_page.locator("#arena-notice")).to_contain_text("You are in.", timeout=LIVE_MS)
    expect(bob_page.locator("#arena-standings")).to_contain_text("alice", timeout=LIVE_MS)
    bob_page.get_by_role("button", name="Der Arena beitreten").click()
    # bob's answer sends him to the table; alice's page hears it over its socket.
    bob_page.wait_for_url(table, timeout=LIVE_MS)
    alice_page.wait_for_url(table, timeout=LIVE_MS)
    first = match_of(alice)
    assert alice_page.url == bob_page.url == f"{base}/games/{first.public_id}/"
    expect(alice_page.get_by_role("link", name=re.compile("Arena: "))).to_be_visible()

    # Both watch the arena while the first match is played: alice wins it.
    alice_page.goto(url)
    bob_page.goto(url)
    expect(alice_page.locator("#arena-pairings")).to_contain_text("alice – bob")
    win(alice)
    expect(
        alice_page.locator("#arena-standings tr[data-player=alice] td[data-points]")
    ).to_have_text("2", timeout=LIVE_MS)
    expect(bob_page.locator("#arena-standings tr[data-player=alice] td[data-points]")).to_have_text(
        "2", timeout=LIVE_MS
    )
    expect(bob_page.locator("#arena-standings")).to_contain_text("Tabelle")
    expect(alice_page.locator("#arena-standings")).to_contain_text("Standings")
    assert _row(alice_page, "alice").split()[0] == "1"
    alice_page.screenshot(path=str(ARTIFACTS / "arena-standings-en.png"), full_page=True)

    # The sweep pairs them again (nobody else waits): both pages go to the new table.
    service.sweep()
    alice_page.wait_for_url(table, timeout=LIVE_MS)
    bob_page.wait_for_url(table, timeout=LIVE_MS)
    second = match_of(bob)
    assert second != first and alice_page.url == f"{base}/games/{second.public_id}/"

    alice_page.goto(url)
    bob_page.goto(url)
    win(bob)
    expect(bob_page.locator("#arena-standings tr[data-player=bob] td[data-points]")).to_have_text(
        "2", timeout=LIVE_MS
    )
    # Equal points and performance: alice got there first.
    expect(bob_page.locator("#arena-standings tbody tr").first).to_have_attribute(
        "data-player", "alice"
    )
    assert _row(bob_page, "bob").split()[:4] == ["2", "bob", "2", "1"]
    bob_page.screenshot(path=str(ARTIFACTS / "arena-standings-de.png"), full_page=True)
    # Each page was loaded only when the player went somewhere: no reload for a push.
    assert len(alice_loads) == len(bob_loads) == 5
