"""The provably fair deal between two people in real Chromium (docs/fairness.md): each page
shows the commitment and sends a random seed of its own at once; while the other player's seed
is awaited the table says so and shows no card; the deal then reaches both pages live."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import BrowserContext, expect

from games.engine import fair
from games.state_cache import forget_all, load_state
from tests.browser.conftest import sign_in_to_lobby
from tests.browser.test_live_play import _navigations
from tests.games.live_helpers import lobby_match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
LIVE_MS = 8_000


@pytest.mark.timeout(300)
def test_each_page_seeds_the_deal_and_waits_visibly_for_the_other(
    base: str, contexts: list[BrowserContext], alice: User, bob: User, password: str
) -> None:
    alice_page = sign_in_to_lobby(contexts[0], base, "alice", password)
    bob_page = sign_in_to_lobby(contexts[1], base, "bob", password)
    match = lobby_match(alice, bob)
    table = f"{base}/games/{match.public_id}/"
    commitment = fair.commitment(fair.server_seed(match.seed, 1))

    alice_page.goto(table)
    status = alice_page.locator("#status")
    # Her page sent its seed as soon as it showed the commitment; bob's is awaited.
    expect(status.locator(".headline")).to_have_text("Shuffling: waiting for bob's seed.")
    expect(status.locator(".detail")).to_contain_text("within 10 seconds counts as none")
    expect(alice_page.locator(f'abbr[title="{commitment}"]')).to_be_attached()
    expect(alice_page.locator("#hand")).to_be_hidden()
    expect(alice_page.locator("#actions button")).to_have_count(0)
    ARTIFACTS.mkdir(exist_ok=True)
    alice_page.screenshot(path=str(ARTIFACTS / "fair-deal-waiting-phone.png"), full_page=True)
    forget_all()
    match.refresh_from_db()
    alices = load_state(match).seeded[0]
    assert alices is not None and re.fullmatch(r"[0-9a-f]{32}", alices)
    loads = _navigations(alice_page)

    # bob opens the table: his page sends his seed, and the hand reaches both pages live.
    bob_page.goto(table)
    expect(alice_page.locator("#status .headline")).to_have_text(
        re.compile(r"^Your turn: take the upcard"), timeout=LIVE_MS
    )
    expect(bob_page.locator("#status .headline")).to_have_text("Waiting for alice…")
    expect(alice_page.locator("#hand .slot")).to_have_count(10)
    assert _navigations(alice_page) == loads
    match.refresh_from_db()
    state = load_state(match)
    bobs = state.seeded[1]
    assert bobs is not None and re.fullmatch(r"[0-9a-f]{32}", bobs) and bobs != alices
    deck = fair.seeded_deck(fair.server_seed(match.seed, 1), (alices, bobs))
    shown = alice_page.locator("#hand .slot").evaluate_all("els => els.map(e => e.dataset.code)")
    assert sorted(shown) == sorted(deck[0:10])
    alice_page.screenshot(path=str(ARTIFACTS / "fair-deal-dealt-phone.png"), full_page=True)
