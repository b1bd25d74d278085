"""A correspondence hand whose deal waits for a player's seed reaches that player's devices, as
``/me/your-turn`` lists it (issue 42): once per player and wait. The other's seed, or the same
change announced again, sends nothing more (no storm of pushes from one wait); the next hand's
wait tells them again. The notice is in the player's language and names no card."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from games import events
from games import services as game_services
from games.models import Match, Seat
from lobby import services as lobby_services
from lobby.webpush import delivery as push_delivery
from lobby.webpush import notifications
from tests.games.conftest import ALICE_KNOCKS, BEA_LOOSE, stacked
from tests.lobby.lobby_helpers import online
from tests.lobby.push_service import PushService
from tests.lobby.test_push import _subscribe

pytestmark = pytest.mark.django_db(transaction=True)

CARD = re.compile(r"\b[A2-9TJQK][CDHS]\b")
GIN_DECK = stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "TC")


def _seed_notices(service: PushService) -> list[Any]:
    assert push_delivery.wait_idle()
    return [p for p in service.received if "waits for your seed" in p.payload["title"]]


def _seed(match: Match, seat: int) -> None:
    match.refresh_from_db()
    game_services.submit(match, seat, {"type": "seed", "seed": f"seed-of-{seat}"}, match.version)


def test_each_player_hears_once_that_the_deal_waits_for_their_seed(
    service: PushService, alice: User, bob: User
) -> None:
    alices, bobs = service.device(), service.device()
    _subscribe(alice, alices)
    _subscribe(bob, bobs)
    changes: list[events.MatchChanged] = []

    def heard(sender: Any, change: events.MatchChanged, **kwargs: Any) -> None:
        changes.append(change)

    events.match_changed.connect(heard, dispatch_uid="test-seed-wait")
    try:
        made = lobby_services.challenge(alice, bob, "standard", 100, rated=False, days_per_move=3)
        match = lobby_services.accept_challenge(made, bob)
        notices = _seed_notices(service)
        assert sorted(p.path for p in notices) == sorted(
            urlsplit(device.endpoint).path for device in (alices, bobs)
        )
        for notice in notices:
            assert notice.payload["url"] == f"/games/{match.public_id}/"
            assert notice.payload["tag"] == f"turn-{match.public_id}"
            assert "Standard to 100" in notice.payload["body"]
            assert "10 seconds" in notice.payload["body"]
            assert 0 <= int(notice.headers["ttl"]) <= 10
            assert not CARD.search(json.dumps(notice.payload))
        titles = sorted(p.payload["title"] for p in notices)
        assert titles == [
            "The deal against alice waits for your seed",
            "The deal against bob waits for your seed",
        ]

        # alice sends hers: bob is still waited for, and is not told again.
        _seed(match, 0)
        assert len(_seed_notices(service)) == 2
        # The same change told again and again (an outbox delivering it twice, a storm of
        # announcements) tells nobody again.
        match.refresh_from_db()
        for _ in range(5):
            notifications.on_turn(None, changes[-1], match=match)
        assert len(_seed_notices(service)) == 2
    finally:
        events.match_changed.disconnect(dispatch_uid="test-seed-wait")

    # bob's seed deals the hand: whoever is to move hears of their turn, and no seed notice.
    _seed(match, 1)
    assert push_delivery.wait_idle()
    assert len(_seed_notices(service)) == 2
    assert any(p.payload["title"].startswith("Your turn against") for p in service.received)


def test_the_next_hands_wait_tells_them_again(service: PushService, alice: User, bob: User) -> None:
    match = game_services.create_match(
        Match.Kind.LOBBY,
        game_services.ruleset("standard", 250),
        (
            game_services.SeatSpec(Seat.Kind.PLAYER, user=alice),
            game_services.SeatSpec(Seat.Kind.PLAYER, user=bob),
        ),
        deck=GIN_DECK,
        days_per_move=3,
    )
    _subscribe(alice, service.device())
    _subscribe(bob, service.device())
    for seat, action in (
        (0, {"type": "pass"}),
        (1, {"type": "pass"}),
        (0, {"type": "draw", "from": "stock"}),
        (0, {"type": "gin", "card": "KD"}),
    ):
        match.refresh_from_db()
        game_services.submit(match, seat, action, match.version)
    assert _seed_notices(service) == []  # the first hand was dealt from the deck: no wait
    match.refresh_from_db()
    game_services.submit(match, 1, {"type": "next_hand"}, match.version)
    assert len(_seed_notices(service)) == 2
    # Nobody sends a seed: the hand is dealt without them when the wait is over, and the
    # wait that ended tells nobody anything more.
    game_services.deal_overdue(timezone.now() + timedelta(seconds=11))
    assert len(_seed_notices(service)) == 2


def test_it_is_written_in_the_players_language(service: PushService, alice: User, bob: User):
    bob.profile.language = "de"
    bob.profile.save()
    _subscribe(bob, service.device())
    made = lobby_services.challenge(alice, bob, "standard", 100, rated=False, days_per_move=3)
    lobby_services.accept_challenge(made, bob)
    assert push_delivery.wait_idle()
    titles = [p.payload["title"] for p in service.received]
    assert "Das Geben gegen alice wartet auf deinen Seed" in titles


def test_a_live_match_waiting_for_seeds_pushes_nothing(
    service: PushService, alice: User, bob: User
) -> None:
    # At a live table both players are there: their pages send the seeds within the wait.
    from tests.games.live_helpers import lobby_match

    _subscribe(alice, service.device())
    _subscribe(bob, service.device())
    lobby_match(alice, bob)
    assert _seed_notices(service) == []


def test_a_player_with_a_page_open_hears_nothing_on_their_devices(
    service: PushService, alice: User, bob: User, carol: User
) -> None:
    # alice has a page open: she sees the wait there, and her devices stay quiet. bob has
    # none open and hears of each wait, in his match with alice and in his match with carol.
    alices, bobs = service.device(), service.device()
    _subscribe(alice, alices)
    _subscribe(bob, bobs)
    online(alice)
    made = lobby_services.challenge(alice, bob, "standard", 100, rated=False, days_per_move=3)
    lobby_services.accept_challenge(made, bob)
    other = lobby_services.challenge(carol, bob, "simple", 50, rated=False, days_per_move=3)
    lobby_services.accept_challenge(other, bob)
    notices = _seed_notices(service)
    assert {p.path for p in notices} == {urlsplit(bobs.endpoint).path}
    assert sorted(p.payload["title"] for p in notices) == [
        "The deal against alice waits for your seed",
        "The deal against carol waits for your seed",
    ]
