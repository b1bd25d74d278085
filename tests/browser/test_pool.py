"""Quick pairing in real Chromium: two players press "Play now" and land at the same table."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import BrowserContext, expect

from games.models import Match
from tests.browser.conftest import sign_in_to_lobby

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# How long a page may take to show a change, on a loaded machine. (How soon a pair meets is
# measured, not asserted: ``python -m bench.pool`` prints the time from the second press.)
LIVE_MS = 10_000


def test_two_players_press_play_now_and_meet_at_one_table(
    base: str, contexts: list[BrowserContext], alice: User, bob: User, password: str
) -> None:
    alice_page = sign_in_to_lobby(contexts[0], base, "alice", password)
    bob_page = sign_in_to_lobby(contexts[1], base, "bob", password)

    alice_page.locator("#lobby-pool").get_by_role("button", name="Classic to 150").click()
    waiting = alice_page.locator("#lobby-pool [data-pool-waiting]")
    expect(waiting).to_contain_text("Looking for an opponent: Classic to 150.", timeout=LIVE_MS)
    expect(waiting).to_contain_text("Nobody else is waiting for these rules yet")

    bob_page.locator("#lobby-pool").get_by_role("button", name="Classic to 150").click()
    table = re.compile(re.escape(base) + r"/games/[\w-]+/$")
    bob_page.wait_for_url(table, timeout=LIVE_MS)
    alice_page.wait_for_url(table, timeout=LIVE_MS)
    assert alice_page.url == bob_page.url
    match = Match.objects.get(kind=Match.Kind.LOBBY)
    assert alice_page.url.endswith(f"/games/{match.public_id}/")
    assert match.rules["name"] == "classic" and match.rules["target"] == 150
