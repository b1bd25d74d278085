"""The lobby in real Chromium, two players in two browser contexts, pushed live over daphne."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import APIResponse, Browser, BrowserContext, Page, Route, expect

from games.models import Match
from lobby import presence
from lobby.models import Challenge, Presence
from tests.browser.conftest import PHONE, phone_contexts, sign_in_to_lobby

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
LIVE_MS = 5_000  # "within a second", with room for a loaded CI machine


# Counts the tones lobby.js plays: every beep starts oscillators on a WebAudio context.
COUNT_BEEPS = """
window.__tones = 0;
const original = AudioContext.prototype.createOscillator;
AudioContext.prototype.createOscillator = function () {
  window.__tones += 1;
  return original.call(this);
};
"""


def _wait_connected(page: Page, other: str) -> None:
    expect(page.locator(f'#lobby-players [data-player="{other}"]')).to_be_visible(timeout=LIVE_MS)


def _challenge(page: Page, username: str, preset: str = "standard", target: str = "100") -> None:
    row = page.locator(f'#lobby-players [data-player="{username}"]')
    row.locator("select[name=preset]").select_option(preset)
    row.locator("select[name=target]").select_option(target)
    row.get_by_role("button", name="Challenge").click()


def test_it_challenges_declines_cancels_and_accepts_live(
    base: str, contexts: list[BrowserContext], alice: User, bob: User, password: str
) -> None:
    contexts[1].add_init_script(COUNT_BEEPS)
    alice_page = sign_in_to_lobby(contexts[0], base, "alice", password)
    bob_page = sign_in_to_lobby(contexts[1], base, "bob", password)
    # bob switches the sound cue on (the toggle is kept in localStorage).
    bob_page.locator("#lobby-sound").check()
    tones = bob_page.evaluate("window.__tones")
    # Each sees the other arrive without reloading.
    _wait_connected(alice_page, "bob")
    _wait_connected(bob_page, "alice")
    reloads = bob_page.evaluate("performance.getEntriesByType('navigation').length")

    # alice challenges; bob sees it live and declines with a reason; alice sees the reason.
    _challenge(alice_page, "bob", "classic", "50")
    incoming = bob_page.locator("#lobby-challenges [data-incoming]")
    expect(incoming).to_contain_text("alice challenges you: Classic to 50", timeout=LIVE_MS)
    assert bob_page.evaluate("window.__tones") > tones  # the new challenge beeped
    assert bob_page.evaluate("localStorage.getItem('lobby.sound')") == "on"
    incoming.get_by_role("button", name="Different rules, please").click()
    expect(alice_page.locator("#lobby-challenges")).to_contain_text(
        "bob declined: different rules, please.", timeout=LIVE_MS
    )
    expect(incoming).to_have_count(0)

    # alice challenges again and cancels; bob sees it disappear.
    _challenge(alice_page, "bob")
    expect(incoming).to_have_count(1, timeout=LIVE_MS)
    alice_page.locator("#lobby-challenges [data-outgoing]").filter(
        has_text="Waiting for an answer"
    ).get_by_role("button", name="Cancel").click()
    expect(incoming).to_have_count(0, timeout=LIVE_MS)
    assert Challenge.objects.filter(status=Challenge.Status.CANCELLED).count() == 1

    # No page was reloaded for any of that.
    assert bob_page.evaluate("performance.getEntriesByType('navigation').length") == reloads

    # alice challenges, bob accepts: both pages land on the match table.
    _challenge(alice_page, "bob", "simple", "150")
    expect(incoming).to_have_count(1, timeout=LIVE_MS)
    ARTIFACTS.mkdir(exist_ok=True)
    bob_page.screenshot(path=str(ARTIFACTS / "lobby-challenged-phone.png"), full_page=True)
    assert bob_page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    incoming.get_by_role("button", name="Accept").click()
    table = re.compile(re.escape(base) + r"/games/[\w-]+/$")
    bob_page.wait_for_url(table, timeout=LIVE_MS)
    alice_page.wait_for_url(table, timeout=LIVE_MS)
    assert alice_page.url == bob_page.url
    match = Match.objects.get(kind=Match.Kind.LOBBY)
    assert alice_page.url.endswith(f"/games/{match.public_id}/")
    assert match.rules["name"] == "simple" and match.rules["target"] == 150


@pytest.fixture
def routable(browser: Browser) -> Iterator[list[BrowserContext]]:
    """Two players' browsers whose requests all reach ``page.route``: no service worker."""
    with phone_contexts(browser, 2, service_workers="block") as made:
        yield made


def test_an_accepted_challenge_is_followed_once_when_the_push_comes_first(
    base: str, routable: list[BrowserContext], alice: User, bob: User, password: str
) -> None:
    alice_page = sign_in_to_lobby(routable[0], base, "alice", password)
    bob_page = sign_in_to_lobby(routable[1], base, "bob", password)
    _wait_connected(alice_page, "bob")
    # bob's answer to his Accept is held back until the pushed redirect has sent his page on,
    # and that navigation is held open while the answer (with its HX-Redirect) comes in.
    accepts: list[tuple[Route, APIResponse]] = []
    tables: list[Route] = []
    bob_page.route(
        re.compile(r".*/lobby/challenges/\d+/accept$"), lambda r: accepts.append((r, r.fetch()))
    )
    bob_page.route(re.compile(r".*/games/[\w-]+/$"), lambda r: tables.append(r))
    failed: list[str] = []
    bob_page.on("requestfailed", lambda request: failed.append(request.url))
    _challenge(alice_page, "bob")
    incoming = bob_page.locator("#lobby-challenges [data-incoming]")
    expect(incoming).to_have_count(1, timeout=LIVE_MS)
    incoming.get_by_role("button", name="Accept").click()
    deadline = time.monotonic() + LIVE_MS / 1000
    while not (accepts and tables):
        assert time.monotonic() < deadline, "the push never sent bob's page to the table"
        bob_page.wait_for_timeout(50)
    route, answer = accepts[0]
    assert answer.headers.get("hx-redirect")
    with bob_page.expect_event("requestfinished", lambda r: r.url.endswith("/accept")):
        route.fulfill(response=answer)
    bob_page.wait_for_timeout(500)  # time for the answer's HX-Redirect, had it been followed
    for route in tables:
        route.continue_()
    bob_page.wait_for_url(re.compile(re.escape(base) + r"/games/[\w-]+/$"), timeout=LIVE_MS)
    # One navigation, never aborted by a second one to the same table.
    assert len(tables) == 1 and failed == []


def test_it_keeps_an_open_page_online_with_heartbeats(
    base: str,
    contexts: list[BrowserContext],
    alice: User,
    password: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(presence, "HEARTBEAT_SECONDS", 1)
    sign_in_to_lobby(contexts[0], base, "alice", password)
    sockets = Presence.objects.filter(user=alice).exclude(channel_name__startswith="http:")
    # The page has loaded; its socket connects (and is recorded) a moment later.
    deadline = time.monotonic() + 5
    while sockets.count() != 1:
        assert time.monotonic() < deadline, "the lobby page's socket was never recorded"
        time.sleep(0.1)
    # Pretend the socket has been quiet for 40 s; the page's next beat must bring it back.
    sockets.update(last_seen=timezone.now() - timedelta(seconds=40))
    deadline = time.monotonic() + 5
    while (timezone.now() - sockets.get().last_seen).total_seconds() > 5:
        assert time.monotonic() < deadline, "no heartbeat arrived from the page"
        time.sleep(0.2)
