"""Starting matches against Bea is limited: per client address for guests (every fresh
browser is a new guest) and per player (an account, or a guest's browser). Before, "Play Bea
now" made 40 matches in 1.8 s from fresh browsers, each kept for 30 days (issue 28). A
refusal is a page saying how long to wait (429 with Retry-After), and changes nothing."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest
from django.core.cache import cache
from django.test import Client

from games.models import Match
from ginsite import settings as shipped
from tests.api.conftest import API, body

from .live_helpers import signed_in

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db

CHOICE = {"preset": "standard", "target": "100", "level": "medium"}
HERE, ELSEWHERE = "203.0.113.5", "198.51.100.7"
WINDOW = 600  # BEA_MATCH_LIMIT_WINDOW; the tests' limits clock is one second into its window


@pytest.fixture(autouse=True)
def _shipped_limits(settings) -> Iterator[None]:  # type: ignore[no-untyped-def]
    """The limits as the site ships them (the suite's settings lift them), counted afresh."""
    for name in ("BEA_MATCH_LIMIT_PER_PLAYER", "BEA_MATCH_LIMIT_PER_ADDRESS"):
        setattr(settings, name, getattr(shipped, name))
    cache.clear()  # the counts live in the cache, in a window the tests' clock holds still
    yield
    cache.clear()


def test_the_shipped_limits_are_the_documented_ones() -> None:
    assert (shipped.BEA_MATCH_LIMIT_PER_PLAYER, shipped.BEA_MATCH_LIMIT_PER_ADDRESS) == (10, 20)
    assert shipped.BEA_MATCH_LIMIT_WINDOW == WINDOW


def _fresh_browser(address: str = HERE, **headers: str):  # type: ignore[no-untyped-def]
    return Client(REMOTE_ADDR=address).post("/games/new/", CHOICE, headers=headers)


def test_fresh_browsers_from_one_address_stop_at_the_limit() -> None:
    # The review's 40 clicks on "Play Bea now", each from a new browser: 20 matches, no more.
    answers = [_fresh_browser().status_code for _ in range(40)]
    assert answers == [302] * 20 + [429] * 20
    assert Match.objects.count() == 20
    refused = _fresh_browser()
    assert refused["Retry-After"] == str(WINDOW - 1)
    page = refused.content.decode()
    assert "Too many matches against Bea were started from your network just now." in page
    assert f"Try again in {WINDOW - 1} seconds, or sign in." in page
    # Another address, and a signed-in player at this one, still play.
    assert _fresh_browser(ELSEWHERE).status_code == 302


def test_a_signed_in_player_is_not_held_back_by_the_guests_at_their_address(alice: User) -> None:
    for _ in range(20):
        _fresh_browser()
    assert _fresh_browser().status_code == 429
    player = signed_in(alice)
    player.defaults["REMOTE_ADDR"] = HERE
    assert player.post("/games/new/", CHOICE).status_code == 302


def test_one_browser_starts_at_most_ten_matches_in_the_window() -> None:
    browser = Client(REMOTE_ADDR=HERE)
    assert browser.post("/games/new/", CHOICE).status_code == 302
    for _ in range(9):  # each new one abandons the running one: one open match at a time
        assert browser.post("/games/new/", {**CHOICE, "confirm": "1"}).status_code == 302
        assert Match.objects.filter(status=Match.Status.ACTIVE).count() == 1
    running = Match.objects.get(status=Match.Status.ACTIVE)
    refused = browser.post("/games/new/", {**CHOICE, "confirm": "1"})
    assert refused.status_code == 429
    assert "You have started too many matches against Bea just now." in refused.content.decode()
    # Nothing changed: the running match was not abandoned for a match never made.
    running.refresh_from_db()
    assert running.is_active
    assert Match.objects.count() == 10


def test_asking_whether_to_abandon_the_running_match_costs_nothing() -> None:
    browser = Client(REMOTE_ADDR=HERE)
    browser.post("/games/new/", CHOICE)
    for _ in range(15):  # "Start a new match?" each time: no match is made
        assert "Start a new match?" in browser.post("/games/new/", CHOICE).content.decode()
    assert browser.post("/games/new/", {**CHOICE, "confirm": "1"}).status_code == 302


def test_it_says_so_in_german() -> None:
    for _ in range(20):
        _fresh_browser()
    page = _fresh_browser(**{"accept-language": "de"}).content.decode()
    assert "Von deinem Netz aus wurden eben zu viele Partien gegen Bea begonnen." in page
    assert f"Versuch es in {WINDOW - 1} Sekunden wieder oder melde dich an." in page


def test_the_api_counts_a_players_matches_too(alice: User) -> None:
    from lobby.accounts import tokens

    headers = {"Authorization": f"Bearer {tokens.create(alice, 'bot')[1]}"}
    start = {"preset": "standard", "target": 100, "level": "easy", "replace": True}
    for _ in range(10):
        made = Client().post(
            f"{API}/matches/bea", start, content_type="application/json", headers=headers
        )
        assert made.status_code == 201
    refused = Client().post(
        f"{API}/matches/bea", start, content_type="application/json", headers=headers
    )
    assert (refused.status_code, body(refused)["code"]) == (429, "rate_limited")
    assert refused["Retry-After"] == str(WINDOW - 1)
    assert Match.objects.count() == 10
    assert Match.objects.filter(status=Match.Status.ACTIVE).count() == 1


def test_a_match_nobody_moved_in_is_removed_after_a_day(capsys) -> None:  # type: ignore[no-untyped-def]
    from datetime import timedelta

    from django.core.management import call_command
    from django.utils import timezone

    from games.models import Seat

    for _ in range(2):
        _fresh_browser()
    unplayed, played = Match.objects.order_by("pk")
    Match.objects.filter(pk=played.pk).update(version=1)  # the guest made a move
    two_days_ago = timezone.now() - timedelta(days=2)
    Match.objects.update(updated_at=two_days_ago, created_at=two_days_ago)
    Seat.objects.update(last_active=two_days_ago)
    call_command("expire_tables")
    assert "1 guest match(es) against Bea removed." in capsys.readouterr().out
    assert list(Match.objects.all()) == [played]
