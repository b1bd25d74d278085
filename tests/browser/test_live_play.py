"""Two people play each other in real Chromium (two browser contexts) over a real daphne:
challenge from the lobby, a whole hand by clicking with each page updated live, resign, and
a rematch offered and accepted."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import BrowserContext, Page, expect

from games.models import Match
from tests.browser.conftest import PHONE, sign_in_to_lobby

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
LIVE_MS = 8_000
YOUR_TURN_OR_OVER = re.compile(r"^(Your turn|Hand \d+ is over|You won|\w+ won the match)")


def _navigations(page: Page) -> int:
    return int(page.evaluate("performance.getEntriesByType('navigation').length"))


def _headline(page: Page) -> str:
    return page.locator("#status .headline").inner_text()


def _play_one_move(page: Page, headline: str) -> None:
    """The move a sensible player makes: pass the upcard, draw from the stock, then knock or
    go gin if possible, else discard the card that leaves the least deadwood."""
    actions = page.locator("#actions")
    if "take the upcard" in headline:
        actions.get_by_role("button", name="Pass").click()
    elif "draw" in headline:
        actions.get_by_role("button", name="Draw from the stock").click()
        expect(page.locator("#hand input[name=card]").first).to_be_attached()
    else:
        picks = page.locator("#hand input[name=card]:not([disabled])")
        afters = [int(v) for v in picks.evaluate_all("els => els.map(e => e.dataset.after)")]
        picks.nth(afters.index(min(afters))).evaluate("e => e.closest('label').click()")
        expect(page.locator("#actions .selection")).to_contain_text("Discard")
        gin = actions.locator("button[value=gin]")
        knock = actions.locator("button[value=knock]")
        if gin.count() and gin.is_enabled():
            gin.click()
        elif knock.is_enabled():
            knock.click()
        else:
            actions.locator("button[value=discard]").click()
    expect(page.locator("#status .headline")).not_to_have_text(headline, timeout=LIVE_MS)


@pytest.mark.timeout(600)
def test_two_players_play_a_hand_live_then_resign_and_rematch(
    base: str, contexts: list[BrowserContext], alice: User, bob: User, password: str
) -> None:
    alice_page = sign_in_to_lobby(contexts[0], base, "alice", password)
    bob_page = sign_in_to_lobby(contexts[1], base, "bob", password)
    expect(alice_page.locator('#lobby-players [data-player="bob"]')).to_be_visible(timeout=LIVE_MS)

    # alice challenges from the lobby; bob accepts; both land on the same table.
    row = alice_page.locator('#lobby-players [data-player="bob"]')
    row.locator("select[name=preset]").select_option("standard")
    # 250: no single hand can end the match, so hand 1 is always followed by "Next hand".
    row.locator("select[name=target]").select_option("250")
    row.get_by_role("button", name="Challenge").click()
    incoming = bob_page.locator("#lobby-challenges [data-incoming]")
    expect(incoming).to_have_count(1, timeout=LIVE_MS)
    incoming.get_by_role("button", name="Accept").click()
    table = re.compile(re.escape(base) + r"/games/[\w-]+/$")
    bob_page.wait_for_url(table, timeout=LIVE_MS)
    alice_page.wait_for_url(table, timeout=LIVE_MS)
    assert alice_page.url == bob_page.url
    match = Match.objects.get(kind=Match.Kind.LOBBY)
    pages = {"alice": alice_page, "bob": bob_page}
    for name, page in pages.items():
        other = "bob" if name == "alice" else "alice"
        expect(page.locator("#live .presence")).to_contain_text(
            f"{other}: connected", timeout=LIVE_MS
        )
    loads = {name: _navigations(page) for name, page in pages.items()}

    # A whole hand by clicking: whoever's turn it is moves; the other page follows live.
    moves = 0
    while True:
        turn = None
        deadline = time.monotonic() + LIVE_MS / 1000
        while turn is None and time.monotonic() < deadline:
            for name, page in pages.items():
                if _headline(page).startswith("Your turn"):
                    turn = name
            if turn is None and "is over" in _headline(alice_page):
                break
            if turn is None:
                time.sleep(0.1)
        if turn is None:
            break
        _play_one_move(pages[turn], _headline(pages[turn]))
        moves += 1
        assert moves < 120, "the hand should have ended by now"
    for page in pages.values():
        expect(page.locator("#result")).to_contain_text("Hand 1:", timeout=LIVE_MS)
        expect(page.locator("#result .side")).to_have_count(2)
    assert {name: _navigations(page) for name, page in pages.items()} == loads, "a page reloaded"
    ARTIFACTS.mkdir(exist_ok=True)
    bob_page.screenshot(path=str(ARTIFACTS / "live-hand-result-phone.png"), full_page=True)
    assert bob_page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    # Next hand, then alice resigns; bob's page shows it live.
    alice_page.locator("#actions").get_by_role("button", name="Next hand").click()
    expect(bob_page.locator("#scores .hand-no")).to_contain_text("2", timeout=LIVE_MS)
    # As a player would, alice lets her own table deal hand 2 first: both pages post their
    # seeds by themselves, and a tap while the deal re-renders the table is lost (mouse down
    # on one element, up on its replacement: CI's run, on an idle machine).
    expect(alice_page.locator("#hand .hand-cards > li")).to_have_count(10, timeout=LIVE_MS)
    expect(alice_page.locator("#scores .hand-no")).to_contain_text("2")
    alice_page.get_by_role("link", name="Resign").click()
    alice_page.get_by_role("button", name="Yes, resign").click()
    alice_page.wait_for_url(match_url := base + f"/games/{match.public_id}/")
    expect(bob_page.locator("#status")).to_contain_text("This match was resigned.", timeout=LIVE_MS)
    expect(bob_page.locator("#status")).to_contain_text("You won it.")

    # bob offers a rematch; alice sees it live and accepts; both pages go to the new match.
    # The way on sits under the hand; the answer right under the status line, which names it.
    bob_page.locator("#after").get_by_role("button", name="Offer a rematch").click()
    expect(alice_page.locator("#status")).to_contain_text("bob offers a rematch", timeout=LIVE_MS)
    expect(alice_page.locator("#answer")).to_contain_text("bob offers a rematch.")
    alice_page.locator("#answer").get_by_role("button", name="Accept").click()
    alice_page.wait_for_url(lambda url: url != match_url and table.match(url), timeout=LIVE_MS)
    bob_page.wait_for_url(lambda url: url != match_url and table.match(url), timeout=LIVE_MS)
    assert alice_page.url == bob_page.url
    rematch = Match.objects.get(previous=match)
    assert bob_page.url.endswith(f"/games/{rematch.public_id}/")
    # Seats swapped: bob now plays first.
    assert [s.user.username for s in rematch.seats.all()] == ["bob", "alice"]
    expect(bob_page.locator("#status .headline")).to_contain_text("Your turn", timeout=LIVE_MS)
