"""Each player's numbered events: what they hold, catching up with since=N, the NDJSON stream
and the websocket."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.utils import timezone

from games import services
from ginsite.asgi import application
from lobby import api as lobby_api
from lobby import events
from lobby.models import PlayerEvent, Presence
from tests.games.live_helpers import lobby_match
from tests.lobby.lobby_helpers import online

from .conftest import Api, body, token_for
from .streams import NdjsonStream

pytestmark = pytest.mark.django_db(transaction=True)


def _events(api: Api, since: int = 0) -> list[dict]:
    return body(api.get("/events", since=since))["events"]


def test_a_challenge_reaches_both_players_with_its_answer(alice_api: Api, bob_api: Api, bob):
    online(bob)
    made = body(alice_api.post("/challenges", {"to": "bob"}))
    bob_api.post(f"/challenges/{made['id']}/decline", {"reason": "later"})
    mine = [e for e in _events(alice_api) if e["type"] == "challenge"]
    theirs = [e for e in _events(bob_api) if e["type"] == "challenge"]
    assert [(e["data"]["direction"], e["data"]["status"]) for e in mine] == [
        ("outgoing", "open"),
        ("outgoing", "declined"),
    ]
    assert [(e["data"]["direction"], e["data"]["status"]) for e in theirs] == [
        ("incoming", "open"),
        ("incoming", "declined"),
    ]
    assert mine[-1]["data"]["reason"] == "later"


def test_an_accepted_challenge_announces_the_match(alice_api: Api, bob_api: Api, bob):
    online(bob)
    made = body(alice_api.post("/challenges", {"to": "bob"}))
    match = body(bob_api.post(f"/challenges/{made['id']}/accept"))["match"]
    for api, seat in ((alice_api, 0), (bob_api, 1)):
        found = [e for e in _events(api) if e["type"] == "match"]
        assert found and found[-1]["data"]["match"] == match
        assert found[-1]["data"]["seat"] == seat
        assert found[-1]["data"]["view"]["seat"] == seat


def test_presence_changes_reach_players_in_the_lobby(alice_api: Api, alice, bob):
    online(alice)
    online(bob)
    found = [e for e in _events(alice_api) if e["type"] == "presence"]
    assert found
    assert {p["username"] for p in found[-1]["data"]["online"]} == {"alice", "bob"}


def test_match_events_carry_each_seat_its_own_view(alice_api: Api, bob_api: Api, alice, bob):
    match = lobby_match(alice, bob)
    alice_api.post(
        f"/matches/{match.public_id}/actions", {"action": {"type": "pass"}, "version": 0}
    )
    bob_api.post(f"/matches/{match.public_id}/actions", {"action": {"type": "pass"}, "version": 1})
    mine = [e for e in _events(alice_api) if e["type"] == "match"]
    theirs = [e for e in _events(bob_api) if e["type"] == "match"]
    assert [e["data"]["version"] for e in mine] == [1, 2]
    # Earlier events of a match in one batch point to the newest instead of repeating it.
    assert mine[0]["data"]["view"] is None and mine[0]["data"]["superseded"] is True
    assert mine[-1]["data"]["view"] == services.player_view(match, 0) | {
        "live": mine[-1]["data"]["view"]["live"]
    }
    assert theirs[-1]["data"]["view"]["hand"] == services.player_view(match, 1)["hand"]


def test_since_returns_only_what_was_missed(alice_api: Api, alice, bob):
    match = lobby_match(alice, bob)
    for version, seat_api in enumerate((alice_api, Api(token_for(bob)))):
        seat_api.post(
            f"/matches/{match.public_id}/actions",
            {"action": {"type": "pass"}, "version": version},
        )
    everything = _events(alice_api)
    numbers = [e["seq"] for e in everything]
    assert numbers == list(range(1, len(numbers) + 1))
    missed = _events(alice_api, since=numbers[-2])
    assert [e["seq"] for e in missed] == [numbers[-1]]
    assert missed[0]["data"]["view"] is not None
    page = body(alice_api.get("/events"))  # no since: nothing old, only where the log stands
    assert page["events"] == [] and page["hello"]["last_seq"] == numbers[-1]


def test_old_events_are_purged_but_the_numbering_goes_on(alice, alice_api: Api):
    for _ in range(3):
        events.record(alice.pk, "presence", {"online": []})
    PlayerEvent.objects.update(created_at=timezone.now() - timedelta(hours=2))
    assert events.purge() == 2
    hello = body(alice_api.get("/events", since=0))["hello"]
    assert hello["complete"] is False and hello["last_seq"] == 3
    assert events.record(alice.pk, "presence", {"online": []}) == 4
    assert body(alice_api.get("/events", since=3))["hello"]["complete"] is True


def test_events_are_kept_at_least_ten_minutes(alice):
    events.record(alice.pk, "presence", {"online": []})
    events.record(alice.pk, "presence", {"online": []})
    PlayerEvent.objects.update(created_at=timezone.now() - timedelta(minutes=11))
    assert events.purge() == 0


# --- The NDJSON stream --------------------------------------------------------------------------


def _auth(token: str) -> list[tuple[bytes, bytes]]:
    return [(b"authorization", f"Bearer {token}".encode())]


@pytest.mark.asyncio
async def test_the_ndjson_stream_catches_up_then_goes_live(alice, bob, monkeypatch):
    monkeypatch.setattr(lobby_api, "KEEPALIVE_SECONDS", 0.5)
    token = await sync_to_async(token_for)(alice)
    match = await sync_to_async(lobby_match)(alice, bob)
    alice_api = Api(token)
    await sync_to_async(alice_api.post)(
        f"/matches/{match.public_id}/actions", {"action": {"type": "pass"}, "version": 0}
    )
    stream = NdjsonStream("/api/v1/events/stream", "since=0", _auth(token))
    await stream.open()
    try:
        assert stream.status == 200
        assert stream.headers["content-type"] == "application/x-ndjson"
        hello = await stream.line()
        assert hello["type"] == "hello" and hello["since"] == 0
        missed = await stream.line()
        assert missed["type"] == "match" and missed["data"]["version"] == 1
        # The stream counts as being in the lobby.
        assert await sync_to_async(Presence.objects.filter(user=alice).exists)()
        # A live move by bob arrives on its own.
        bob_api = Api(await sync_to_async(token_for)(bob))
        await sync_to_async(bob_api.post)(
            f"/matches/{match.public_id}/actions", {"action": {"type": "pass"}, "version": 1}
        )
        line = await stream.line()
        while line["type"] != "match":
            line = await stream.line()
        assert line["seq"] > missed["seq"] and line["data"]["version"] == 2
        assert line["data"]["view"]["seat"] == 0
        quiet = await stream.line(timeout=5)
        assert quiet["type"] in ("keepalive", "presence")
        while quiet["type"] != "keepalive":
            quiet = await stream.line(timeout=5)
        assert quiet["last_seq"] >= line["seq"]
    finally:
        await stream.close()
    # Closing the stream leaves the lobby (after the short grace a reload gets).
    left = await sync_to_async(Presence.objects.get)(user=alice)
    assert left.last_seen < timezone.now()


@pytest.mark.asyncio
async def test_the_ndjson_stream_wants_a_token():
    stream = NdjsonStream("/api/v1/events/stream")
    await stream.open()
    assert stream.status == 401
    assert json.loads(await stream.body())["code"] == "unauthorized"


# --- The websocket ------------------------------------------------------------------------------


def _socket(query: str = "", headers: list[tuple[bytes, bytes]] = ()) -> WebsocketCommunicator:
    path = "/ws/events/" + (f"?{query}" if query else "")
    return WebsocketCommunicator(application, path, headers=[(b"host", b"testserver"), *headers])


@pytest.mark.asyncio
async def test_the_websocket_with_a_token_and_no_origin(alice, bob):
    token = await sync_to_async(token_for)(alice)
    match = await sync_to_async(lobby_match)(alice, bob)
    comm = _socket("since=0", _auth(token))
    connected, _ = await comm.connect()
    assert connected
    try:
        hello = await comm.receive_json_from(timeout=5)
        assert hello["type"] == "hello"
        bob_api = Api(await sync_to_async(token_for)(bob))
        alice_api = Api(token)
        await sync_to_async(alice_api.post)(
            f"/matches/{match.public_id}/actions", {"action": {"type": "pass"}, "version": 0}
        )
        await sync_to_async(bob_api.post)(
            f"/matches/{match.public_id}/actions", {"action": {"type": "pass"}, "version": 1}
        )
        versions = []
        while 2 not in versions:
            frame = await comm.receive_json_from(timeout=5)
            if frame["type"] == "match" and frame["data"]["view"] is not None:
                versions.append(frame["data"]["version"])
                assert frame["data"]["view"]["seat"] == 0
        await comm.send_json_to({"type": "ping"})
        frame = await comm.receive_json_from(timeout=5)
        while frame["type"] != "pong":
            frame = await comm.receive_json_from(timeout=5)
        await comm.send_to(text_data="garbage")
        frame = await comm.receive_json_from(timeout=5)
        while frame["type"] != "error":
            frame = await comm.receive_json_from(timeout=5)
        assert frame["code"] == "malformed"
    finally:
        await comm.disconnect()


@pytest.mark.asyncio
async def test_the_websocket_catches_up_from_since(alice):
    await sync_to_async(events.record)(alice.pk, "presence", {"online": []})
    await sync_to_async(events.record)(alice.pk, "presence", {"online": []})
    token = await sync_to_async(token_for)(alice)
    comm = _socket(f"since=1&token={token}")
    connected, _ = await comm.connect()
    assert connected
    try:
        assert (await comm.receive_json_from(timeout=5))["type"] == "hello"
        frame = await comm.receive_json_from(timeout=5)
        assert frame["seq"] == 2
    finally:
        await comm.disconnect()


@pytest.mark.asyncio
async def test_the_websocket_by_session_needs_the_sites_origin(alice):
    client = await sync_to_async(Client)()
    await sync_to_async(client.force_login)(alice)
    cookie = (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode())
    foreign = _socket("", [cookie, (b"origin", b"http://evil.example")])
    connected, code = await foreign.connect()
    assert not connected and code == 4401
    bare = _socket("", [cookie])
    connected, code = await bare.connect()
    assert not connected and code == 4401
    ours = _socket("", [cookie, (b"origin", b"http://testserver")])
    connected, _ = await ours.connect()
    assert connected
    assert (await ours.receive_json_from(timeout=5))["type"] == "hello"
    await ours.disconnect()


@pytest.mark.asyncio
async def test_the_websocket_refuses_a_bad_token():
    comm = _socket("token=gin_nope")
    connected, code = await comm.connect()
    assert not connected and code == 4401
