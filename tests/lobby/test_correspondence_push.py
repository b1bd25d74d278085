"""Correspondence and Web Push (issue 26, parts 2 and 3): a player hears of their turn once per
turn their opponent handed them, and once more when little of it is left, only while none of
their pages or streams is open; no card in any payload. And the lobby's "your turn" region is
pushed to the players' own lobby pages when a turn changes hands."""

from __future__ import annotations

import json
import re

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from django.contrib.auth.models import User

from games import services
from games.engine import legal_actions
from lobby import services as lobby_services
from lobby.routing import websocket_urlpatterns
from lobby.webpush import delivery as push_delivery
from lobby.webpush import notifications
from tests.lobby.push_service import PushService
from tests.lobby.test_push import _pushes, _subscribe
from tests.sockets import Socket

from .correspondence_helpers import Clock, correspondence_match, to_act
from .lobby_helpers import online

pytestmark = pytest.mark.django_db(transaction=True)

CARD = re.compile(r"\b[A2-9TJQK][CDHS]\b")


def test_a_turn_handed_over_notifies_the_opponents_devices_once(
    service: PushService, clock: Clock, alice: User, bob: User
) -> None:
    match = correspondence_match(bob, alice, days=3)  # bob (seat 0) to move; alice has no page
    _subscribe(alice, service.device())
    services.submit(match, 0, {"type": "pass"}, match.version)
    [received] = _pushes(service, 1)
    assert received.payload["title"] == "Your turn against bob"
    assert received.payload["body"] == "Your move in Standard to 100: 3 days left."
    assert received.payload["url"] == f"/games/{match.public_id}/"
    assert int(received.headers["ttl"]) == 3 * 86400
    assert not CARD.search(json.dumps(received.payload))
    # alice passes too; bob draws and then discards: one more turn of alice's, one push more
    # (not one per action).
    services.submit(match, 1, {"type": "pass"}, match.version)
    assert to_act(match) == 0
    state = services.submit(match, 0, {"type": "draw", "from": "stock"}, match.version)
    discard = next(a for a in legal_actions(state, 0) if a["type"] == "discard")
    services.submit(match, 0, discard, match.version)
    assert to_act(match) == 1
    second = _pushes(service, 2)[1]
    assert second.payload["title"] == "Your turn against bob"
    assert not CARD.search(json.dumps(second.payload))
    assert push_delivery.wait_idle()
    assert len(service.received) == 2


def test_no_turn_is_pushed_while_a_page_of_the_player_is_open(
    service: PushService, alice: User, bob: User
) -> None:
    match = correspondence_match(bob, alice, days=1)
    _subscribe(alice, service.device())
    online(alice)  # alice's lobby page is open: the "your turn" list there tells her
    services.submit(match, 0, {"type": "pass"}, match.version)
    assert push_delivery.wait_idle()
    assert service.received == []


def test_a_reminder_goes_once_a_turn_when_little_time_is_left(
    service: PushService, clock: Clock, alice: User, bob: User
) -> None:
    alice.profile.language = "de"
    alice.profile.save()
    match = correspondence_match(bob, alice, days=1)
    _subscribe(alice, service.device())
    services.submit(match, 0, {"type": "pass"}, match.version)  # alice's day begins
    _pushes(service, 1)
    clock.advance(hours=17, minutes=59)  # a quarter of a day (6 hours) is when she is reminded
    assert notifications.remind_due(force=True) == 0
    clock.advance(minutes=2)
    assert notifications.remind_due(force=True) == 1
    assert notifications.remind_due(force=True) == 0  # once a turn
    reminder = _pushes(service, 2)[1]
    assert reminder.payload["title"] == "Wenig Zeit übrig gegen bob"
    assert reminder.payload["body"] == "Dein Zug in Standard bis 100: 5 Stunden übrig."
    assert int(reminder.headers["ttl"]) == 5 * 3600 + 59 * 60
    # Past the deadline there is nothing to remind of (bob may claim the win).
    clock.advance(hours=7)
    assert notifications.remind_due(force=True) == 0


def test_a_correspondence_challenge_reaches_a_player_who_is_not_here(
    service: PushService, alice: User, bob: User
) -> None:
    _subscribe(alice, service.device())  # alice has no page open, nor has she been seen
    online(bob)
    lobby_services.challenge(bob, alice, "classic", 250, days_per_move=7)
    [received] = _pushes(service, 1)
    assert received.payload["title"] == "bob challenges you"
    assert received.payload["body"] == (
        "Classic to 250 points, 7 days per move: accept or decline it in the lobby."
    )
    # Kept by the push service as long as the challenge waits: three days.
    assert int(received.headers["ttl"]) > 2 * 86400


@pytest.mark.asyncio
async def test_the_lobby_pushes_my_turns_when_a_turn_changes_hands(alice: User, bob: User) -> None:
    match = await database_sync_to_async(correspondence_match)(bob, alice, 7)
    socket = Socket(URLRouter(websocket_urlpatterns), "/ws/lobby/")
    socket.scope["user"] = alice
    connected, _code = await socket.connect()
    assert connected
    first = await socket.receive_from()
    assert "No correspondence match is waiting for your move." in first
    await database_sync_to_async(services.submit)(match, 0, {"type": "pass"}, match.version)
    while True:
        frame = await socket.receive_from(timeout=5)
        if 'id="lobby-turns"' in frame:
            break
    assert "Against <strong>bob</strong>" in frame
    assert re.search(r"(7 days|6 days 23 hours) left", frame)
    await socket.disconnect()
