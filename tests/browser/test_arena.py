"""An arena in real Chromium, alice in English and bob in German: both join from the arena's
page and land at the same table, and play two short matches there by clicking, as players do:
the buttons to pass and draw, a card of the hand to select it, Discard and Gin. A third page
(someone not signed in) stays on the arena's page the whole time and sees the standings move,
by pushes alone, after each match's end; the second pairing sends both players from the arena's
page to their next table.

The matches are short because their first deals are stacked (each arena match made here gets the
next deck): in the first alice goes gin on her second draw, in the second bob goes gin on
alice's discard; one hand ends a match to 50.

A page that sees a push out of its numbered order (one went missing) asks its socket for
everything again, gets it, and the next change comes as a patch that applies."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, BrowserContext, Page, expect

from lobby.arena import service
from lobby.services import pairing
from tests.browser.conftest import sign_in_to_lobby
from tests.games.conftest import ALICE_KNOCKS, BEA_LOOSE, stacked
from tests.lobby.arena_helpers import arena, match_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
LIVE_MS = 10_000
# Seat 0 (alice, who joined first) holds three runs and K♦; the stock gives 2♦, 4♦, then 10♣
# (an arena counts a match only when both players made two moves: MOVES_TO_RATE).
ALICE_GOES_GIN = stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "2D 4D TC")
# The same hands the other way round: alice draws 10♣ and throws it, bob takes it and goes gin.
BOB_GOES_GIN = stacked(BEA_LOOSE, ALICE_KNOCKS, "QC", "TC")


@pytest.fixture
def stacked_decks(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every lobby match the arena makes deals its first hand from the next deck."""
    decks = iter([ALICE_GOES_GIN, BOB_GOES_GIN])
    made = pairing.create_match

    def create_match(*args: Any, **kwargs: Any) -> Any:
        return made(*args, **{**kwargs, "deck": next(decks)})

    monkeypatch.setattr(pairing, "create_match", create_match)
    yield


def _loads(page: Page) -> list[str]:
    loaded: list[str] = []
    page.on("load", lambda: loaded.append(page.url))
    return loaded


def _row(page: Page, username: str) -> str:
    return page.locator(f"#arena-standings tr[data-player={username}]").inner_text()


def _points(page: Page, username: str) -> Any:
    return page.locator(f"#arena-standings tr[data-player={username}] td[data-points]")


def _press(page: Page, move: str) -> None:
    """Press the table's button for ``move`` once it is this player's turn to."""
    button = page.locator(f"#actions button[value={move}]")
    expect(button).to_be_enabled(timeout=LIVE_MS)
    button.click()


def _discard(page: Page, card: str, move: str = "discard") -> None:
    """Select ``card`` in the hand by a click on it, then press Discard (or Gin). The card is
    clicked once it can be chosen (the hand after the draw has arrived), as a player sees: a
    click on the hand shown before the draw is undone when the new hand replaces it."""
    label = page.locator(f"#hand .slot[data-code='{card}'] label")
    expect(label).to_be_visible(timeout=LIVE_MS)
    expect(page.locator(f"#hand input[name=card][value='{card}']")).to_be_enabled(timeout=LIVE_MS)
    label.click()
    _press(page, move)


def _over(page: Page) -> None:
    expect(page.locator("#actions button[value=discard]")).to_have_count(0, timeout=LIVE_MS)
    expect(page.locator("#status")).to_be_visible()


def test_two_players_play_two_arena_matches_by_clicking_and_see_the_standings_move(
    base: str,
    browser: Browser,
    contexts: list[BrowserContext],
    alice: User,
    bob: User,
    password: str,
    stacked_decks: None,
) -> None:
    bob.profile.language = "de"
    bob.profile.save()
    made = arena(target=50)
    url = f"{base}/arenas/{made.public_id}/"
    table = re.compile(re.escape(base) + r"/games/[\w-]+/$")
    alice_page = sign_in_to_lobby(contexts[0], base, "alice", password)
    bob_page = sign_in_to_lobby(contexts[1], base, "bob", password)
    watcher = browser.new_context(viewport={"width": 1024, "height": 900}).new_page()
    watched = _loads(watcher)
    watcher.goto(url)

    alice_page.goto(url)
    bob_page.goto(url)
    expect(bob_page.locator("#arena-head")).to_contain_text("Verbleibende Zeit:")
    alice_page.get_by_role("button", name="Join the arena").click()
    expect(alice_page.locator("#arena-notice")).to_contain_text("You are in.", timeout=LIVE_MS)
    expect(watcher.locator("#arena-standings")).to_contain_text("alice", timeout=LIVE_MS)
    bob_page.get_by_role("button", name="Der Arena beitreten").click()
    # bob's answer sends him to the table; alice's page hears it over its socket.
    bob_page.wait_for_url(table, timeout=LIVE_MS)
    alice_page.wait_for_url(table, timeout=LIVE_MS)
    first = match_of(alice)
    assert alice_page.url == bob_page.url == f"{base}/games/{first.public_id}/"
    expect(alice_page.get_by_role("link", name=re.compile("Arena: "))).to_be_visible()
    expect(watcher.locator("#arena-pairings")).to_contain_text("alice – bob", timeout=LIVE_MS)

    # The first match: both pass the upcard, each draws a card and throws it, then alice draws
    # 10♣ and goes gin throwing K♦.
    _press(alice_page, "pass")
    _press(bob_page, "pass")
    _press(alice_page, "draw_stock")
    _discard(alice_page, "2D")
    _press(bob_page, "draw_stock")
    _discard(bob_page, "4D")
    _press(alice_page, "draw_stock")
    _discard(alice_page, "KD", "gin")
    _over(bob_page)
    expect(_points(watcher, "alice")).to_have_text("2", timeout=LIVE_MS)
    assert _row(watcher, "alice").split()[0] == "1"
    expect(watcher.locator("#arena-pairings")).not_to_contain_text("alice – bob")

    # Both go back to the arena's page; the sweep pairs them again (nobody else waits) and
    # both pages are sent to the new table.
    alice_page.goto(url)
    bob_page.goto(url)
    expect(bob_page.locator("#arena-standings")).to_contain_text("Tabelle")
    expect(_points(bob_page, "alice")).to_have_text("2")
    service.sweep()
    alice_page.wait_for_url(table, timeout=LIVE_MS)
    bob_page.wait_for_url(table, timeout=LIVE_MS)
    second = match_of(bob)
    assert second != first and alice_page.url == f"{base}/games/{second.public_id}/"

    # The second match: alice draws 10♣ and throws it; bob takes it and goes gin.
    _press(alice_page, "pass")
    _press(bob_page, "pass")
    _press(alice_page, "draw_stock")
    _discard(alice_page, "TC")
    _press(bob_page, "draw_discard")
    _discard(bob_page, "KD", "gin")
    _over(alice_page)
    expect(_points(watcher, "bob")).to_have_text("2", timeout=LIVE_MS)
    # Equal points and performance: alice got there first; the page numbered the ranks.
    expect(watcher.locator("#arena-standings tbody tr").first).to_have_attribute(
        "data-player", "alice"
    )
    assert _row(watcher, "bob").split()[:4] == ["2", "bob", "2", "1"]
    watcher.screenshot(path=str(ARTIFACTS / "arena-standings-en.png"), full_page=True)
    bob_page.goto(url)
    expect(_points(bob_page, "bob")).to_have_text("2")
    bob_page.screenshot(path=str(ARTIFACTS / "arena-standings-de.png"), full_page=True)
    # The watching page was loaded once: everything after came by pushes.
    assert watched == [url]
    watcher.context.close()


GAP = """() => {
  const socket = document.getElementById('arena')['htmx-internal-data'].webSocket;
  const message = JSON.stringify({type: 'arena', v: 99, full: false, regions: {}, rows: {}});
  htmx.trigger(document.getElementById('arena'), 'htmx:wsBeforeMessage',
               {message: message, socketWrapper: socket.publicInterface});
}"""


def test_a_page_that_missed_a_push_asks_for_everything_and_catches_up(
    base: str, browser: Browser, alice: User, bob: User
) -> None:
    made = arena(target=50, rated=False)
    service.join(alice, made)
    page = browser.new_context(viewport={"width": 1024, "height": 900}).new_page()
    sent: list[str] = []
    got: list[dict[str, Any]] = []
    page.on("websocket", lambda ws: _frames(ws, sent, got))
    page.goto(f"{base}/arenas/{made.public_id}/")
    expect(page.locator("#arena-standings")).to_contain_text("alice")
    _until(page, lambda: [g["v"] for g in got] == [1])
    page.evaluate(GAP)  # a push numbered 99 where 2 was due: a push went missing
    _until(page, lambda: '{"resync":true}' in sent and len(got) == 2)
    assert got[1]["v"] == 2 and got[1]["full"] is True
    service.join(bob, made)  # the next change comes as a patch again, and applies
    expect(page.locator("#arena-standings tr[data-player=bob]")).to_be_visible(timeout=LIVE_MS)
    assert got[-1]["full"] is False
    assert page.locator("#arena-standings tbody tr").count() == 2
    page.context.close()


def _frames(ws: Any, sent: list[str], got: list[dict[str, Any]]) -> None:
    if "/ws/arena/" not in ws.url:
        return
    ws.on("framesent", lambda payload: sent.append(str(payload)))
    ws.on("framereceived", lambda payload: _pushed(str(payload), got))


def _pushed(payload: str, got: list[dict[str, Any]]) -> None:
    if payload.startswith("{"):
        got.append(json.loads(payload))


def _until(page: Page, done: Any) -> None:
    for _ in range(100):
        if done():
            return
        page.wait_for_timeout(100)
    raise AssertionError("the page's socket did not get there")
