"""Each player's numbered events: what they hold, catching up with since=N, the NDJSON stream
and the websocket."""

from __future__ import annotations

import asyncio
import json
import threading
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.db import transaction
from django.test import Client
from django.utils import timezone

from games.engine import player_view
from games.state_cache import load_state
from ginsite.asgi import application
from ginsite.lib.dbwork import in_thread
from lobby import presence
from lobby.events import log as event_log
from lobby.events import socket as event_socket
from lobby.events import stream as event_stream
from lobby.models import PlayerEvent, Presence
from tests.games.live_helpers import lobby_match
from tests.games.test_replay import DECK
from tests.lobby.lobby_helpers import online
from tests.sockets import PATIENCE, Socket

from .conftest import Api, body, token_for
from .streams import NdjsonStream

# Matches whose first hand is stacked (``DECK``) are dealt at once, without waiting for the
# players' seeds (docs/fairness.md): these tests count a match's versions from its first move.

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


def test_comings_and_goings_are_not_logged_for_everyone(alice_api: Api, alice, bob, carol):
    # Who is online is a note the streams read (a presence line), not an event stored for
    # every player online: thirty arrivals cost alice's log nothing.
    online(alice, bob, carol)
    assert [e for e in _events(alice_api) if e["type"] == "presence"] == []
    assert presence.snapshot()["online"] == 3


@pytest.mark.asyncio
async def test_the_stream_says_how_many_are_online_at_most_every_few_seconds(
    alice, bob, carol, monkeypatch
):
    monkeypatch.setattr(event_stream, "KEEPALIVE_SECONDS", 0.3)
    monkeypatch.setattr(event_stream, "PRESENCE_EVERY", 1.0)
    token = await sync_to_async(token_for)(alice)
    stream = NdjsonStream("/api/v1/events/stream", "", _auth(token))
    await stream.open()
    try:
        assert (await stream.line())["type"] == "hello"
        loop = asyncio.get_running_loop()
        started = loop.time()
        for user in (bob, carol):
            await sync_to_async(online)(user)
        shown: list[dict] = []
        while not shown or shown[-1]["online"] < 3:
            assert loop.time() - started < PATIENCE, "no presence line counted everybody"
            line = await stream.line()
            if line["type"] == "presence":
                shown.append(line)
        took = loop.time() - started
        # Three arrivals (alice's own stream, bob, carol): at most one line every
        # PRESENCE_EVERY, however long the arrivals took on this machine, and a line that
        # counts everybody.
        assert len(shown) <= took / event_stream.PRESENCE_EVERY + 1
        assert shown[-1]["online"] == 3 and shown[-1]["at"].endswith("Z")
    finally:
        await stream.close()


@pytest.mark.asyncio
async def test_a_stream_looks_for_a_new_count_at_most_once_a_second(alice, monkeypatch):
    """A busy stream (here, a keepalive every 50 ms) does not read the lobby's count again
    after every line it sends: once it is due, at most once every PRESENCE_LOOK_EVERY."""
    monkeypatch.setattr(event_stream, "KEEPALIVE_SECONDS", 0.05)
    monkeypatch.setattr(event_stream, "PRESENCE_EVERY", 0.0)
    looks = []
    real = presence.snapshot

    def counted() -> Any:
        looks.append(1)
        return real()

    monkeypatch.setattr(presence, "snapshot", counted)
    token = await sync_to_async(token_for)(alice)
    stream = NdjsonStream("/api/v1/events/stream", "", _auth(token))
    await stream.open()
    try:
        lines = [await stream.line() for _ in range(30)]  # 1.5 s of keepalives
    finally:
        await stream.close()
    assert [line["type"] for line in lines].count("keepalive") >= 25
    assert 1 <= len(looks) <= 1.5 / event_stream.PRESENCE_LOOK_EVERY + 2


@pytest.mark.asyncio
async def test_a_stream_may_do_without_presence(alice, bob, monkeypatch):
    monkeypatch.setattr(event_stream, "KEEPALIVE_SECONDS", 0.3)
    token = await sync_to_async(token_for)(alice)
    stream = NdjsonStream("/api/v1/events/stream", "presence=false", _auth(token))
    await stream.open()
    try:
        assert (await stream.line())["type"] == "hello"
        await sync_to_async(online)(bob)
        kinds = {(await stream.line())["type"] for _ in range(5)}
        assert kinds == {"keepalive"}
    finally:
        await stream.close()


def test_match_events_carry_each_seat_its_own_view(alice_api: Api, bob_api: Api, alice, bob):
    match = lobby_match(alice, bob, DECK)
    alice_api.post(
        f"/matches/{match.public_id}/actions", {"action": {"type": "pass"}, "version": 0}
    )
    bob_api.post(f"/matches/{match.public_id}/actions", {"action": {"type": "pass"}, "version": 1})
    mine = [e for e in _events(alice_api) if e["type"] == "match"]
    theirs = [e for e in _events(bob_api) if e["type"] == "match"]
    # The match's start, then each move.
    assert [e["data"]["version"] for e in mine] == [0, 1, 2]
    # Earlier events of a match in one batch point to the newest instead of repeating it.
    assert mine[0]["data"]["view"] is None and mine[0]["data"]["superseded"] is True
    match.refresh_from_db()  # at version 2 now
    assert mine[-1]["data"]["view"] == player_view(load_state(match), 0) | {
        "live": mine[-1]["data"]["view"]["live"],
        "match_status": "active",
        "blocked": "",
    }
    assert theirs[-1]["data"]["view"]["hand"] == player_view(load_state(match), 1)["hand"]


def test_since_returns_only_what_was_missed(alice_api: Api, alice, bob):
    match = lobby_match(alice, bob, DECK)
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


# An event as the log stores it (what it says does not matter to the purge).
_NOTE = {"match": "m", "version": 0, "status": "active"}


def test_old_events_are_purged_but_the_numbering_goes_on(alice, alice_api: Api):
    for _ in range(3):
        event_log.record(alice.pk, "match", _NOTE)
    PlayerEvent.objects.update(created_at=timezone.now() - timedelta(hours=2))
    assert event_log.purge() == 2
    hello = body(alice_api.get("/events", since=0))["hello"]
    assert hello["complete"] is False and hello["last_seq"] == 3
    assert event_log.record(alice.pk, "match", _NOTE) == 4
    assert body(alice_api.get("/events", since=3))["hello"]["complete"] is True


def test_events_are_kept_at_least_ten_minutes(alice):
    event_log.record(alice.pk, "match", _NOTE)
    event_log.record(alice.pk, "match", _NOTE)
    PlayerEvent.objects.update(created_at=timezone.now() - timedelta(minutes=11))
    assert event_log.purge() == 0


# --- The NDJSON stream --------------------------------------------------------------------------


def _auth(token: str) -> list[tuple[bytes, bytes]]:
    return [(b"authorization", f"Bearer {token}".encode())]


@pytest.mark.asyncio
async def test_the_ndjson_stream_catches_up_then_goes_live(alice, bob, monkeypatch):
    monkeypatch.setattr(event_stream, "KEEPALIVE_SECONDS", 0.5)
    token = await sync_to_async(token_for)(alice)
    match = await sync_to_async(lobby_match)(alice, bob, DECK)
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
        started = await stream.line()  # the match's start, superseded by the move after it
        assert started["type"] == "match" and started["data"]["superseded"] is True
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
        quiet = await stream.line()
        assert quiet["type"] in ("keepalive", "presence")
        while quiet["type"] != "keepalive":
            quiet = await stream.line()
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


def _socket(query: str = "", headers: list[tuple[bytes, bytes]] = ()) -> Socket:
    path = "/ws/events/" + (f"?{query}" if query else "")
    return Socket(application, path, headers=[(b"host", b"testserver"), *headers])


@pytest.mark.asyncio
async def test_the_websocket_with_a_token_and_no_origin(alice, bob):
    token = await sync_to_async(token_for)(alice)
    match = await sync_to_async(lobby_match)(alice, bob, DECK)
    comm = _socket("since=0", _auth(token))
    connected, _ = await comm.connect()
    assert connected
    try:
        hello = await comm.receive_json_from()
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
            frame = await comm.receive_json_from()
            if frame["type"] == "match" and frame["data"]["view"] is not None:
                versions.append(frame["data"]["version"])
                assert frame["data"]["view"]["seat"] == 0
        await comm.send_json_to({"type": "ping"})
        frame = await comm.receive_json_from()
        while frame["type"] != "pong":
            frame = await comm.receive_json_from()
        await comm.send_to(text_data="garbage")
        frame = await comm.receive_json_from()
        while frame["type"] != "error":
            frame = await comm.receive_json_from()
        assert frame["code"] == "malformed"
    finally:
        await comm.disconnect()


@pytest.mark.asyncio
async def test_the_websocket_catches_up_from_since(alice):
    await sync_to_async(event_log.record)(alice.pk, "match", _NOTE)
    await sync_to_async(event_log.record)(alice.pk, "match", _NOTE)
    token = await sync_to_async(token_for)(alice)
    comm = _socket(f"since=1&token={token}")
    connected, _ = await comm.connect()
    assert connected
    try:
        assert (await comm.receive_json_from())["type"] == "hello"
        frame = await comm.receive_json_from()
        assert frame["seq"] == 2
    finally:
        await comm.disconnect()


@pytest.mark.asyncio
async def test_the_websocket_by_session_needs_the_sites_origin(alice):
    client = await sync_to_async(Client)()
    await sync_to_async(client.force_login)(alice)
    cookie = (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode())
    foreign = _socket("", [cookie, (b"origin", b"http://evil.example")])
    assert await _closed_with(foreign) == 4401
    bare = _socket("", [cookie])
    assert await _closed_with(bare) == 4401
    ours = _socket("", [cookie, (b"origin", b"http://testserver")])
    connected, _ = await ours.connect()
    assert connected
    assert (await ours.receive_json_from())["type"] == "hello"
    await ours.disconnect()


@pytest.mark.asyncio
async def test_the_websocket_refuses_a_bad_token():
    assert await _closed_with(_socket("token=gin_nope")) == 4401


async def _closed_with(comm: Socket) -> int:
    """The close code a refused socket sees: accepted, then closed (never a bare 403)."""
    connected, _ = await comm.connect()
    assert connected
    closed = await comm.receive_output()
    assert closed["type"] == "websocket.close"
    return int(closed["code"])


def test_after_a_resignation_the_stream_offers_no_move(alice_api: Api, bob_api: Api, alice, bob):
    match = lobby_match(alice, bob)
    resigned = alice_api.post(f"/matches/{match.public_id}/resign", {"version": 0})
    assert resigned.status_code == 200
    for api in (alice_api, bob_api):
        last = [e for e in _events(api) if e["type"] == "match"][-1]
        assert last["data"]["status"] == "resigned"
        view = last["data"]["view"]
        # bob was to take the upcard or pass; a closed match offers nothing to anyone.
        assert view["legal_actions"] == [] and view["to_act"] is None
        assert view["match_status"] == "resigned"


def _unrendered_match_event(user: Any, match: str = "no-such-match") -> None:
    """An event a stream must read from the log: a match event that comes without the
    player's view (as the sweep delivers a change); any other event rides along."""
    event_log.record(user.pk, "match", {"match": match, "version": 0})


@pytest.mark.asyncio
async def test_a_stream_that_fails_closes_with_a_code_the_server_can_send(alice, monkeypatch):
    token = await sync_to_async(token_for)(alice)
    fetch = event_log.fetch
    reads_done = []

    def works_once(*args, **kwargs):  # type: ignore[no-untyped-def]
        if reads_done:
            raise RuntimeError("the database went away")
        found = fetch(*args, **kwargs)
        reads_done.append(found)
        return found

    monkeypatch.setattr(event_log, "fetch", works_once)
    comm = _socket(f"token={token}&presence=false")
    connected, _ = await comm.connect()
    assert connected
    try:
        assert (await comm.receive_json_from())["type"] == "hello"
        # The stream's first read (what came after the hello) is done; the next one fails.
        while not reads_done:
            await asyncio.sleep(0.01)
        await sync_to_async(_unrendered_match_event)(alice)
        closed = await comm.receive_output(timeout=15)
        # Closed, not silent: the client sees the close and reconnects with since. 4500 is in
        # the application range that daphne's websocket library sends (it refused 1011).
        assert closed == {"type": "websocket.close", "code": event_socket.CLOSE_STREAM_FAILED}
        assert 3000 <= event_socket.CLOSE_STREAM_FAILED <= 4999
    finally:
        await comm.disconnect()


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The cursors of every database read the event streams make, in order."""
    made: list[int] = []
    next_batch = event_stream._next_batch

    def counted(user, cursor):  # type: ignore[no-untyped-def]
        made.append(cursor)
        return next_batch(user, cursor)

    monkeypatch.setattr(event_stream, "_next_batch", counted)
    return made


@pytest.mark.asyncio
async def test_announcements_of_events_already_sent_read_nothing_again(alice, reads):
    token = await sync_to_async(token_for)(alice)
    comm = _socket(f"token={token}&presence=false")
    assert (await comm.connect())[0]
    try:
        assert (await comm.receive_json_from())["type"] == "hello"
        before = len(reads)

        def burst() -> None:
            # Five events to read in one commit: five announcements, all in the stream's first
            # read.
            with transaction.atomic():
                for n in range(5):
                    _unrendered_match_event(alice, f"match-{n}")

        await sync_to_async(burst)()
        seqs = [(await comm.receive_json_from())["seq"] for _ in range(5)]
        assert seqs == sorted(seqs) and len(seqs) == 5
        assert await comm.receive_nothing(timeout=0.5)
        # One read delivered all five; the other four announcements read nothing again.
        assert len(reads) - before <= 2
    finally:
        await comm.disconnect()


@pytest.mark.asyncio
async def test_one_slow_stream_does_not_hold_up_another(alice, bob, monkeypatch):
    alice_token = await sync_to_async(token_for)(alice)
    bob_token = await sync_to_async(token_for)(bob)
    fetch = event_log.fetch
    stuck, unstuck = threading.Event(), threading.Event()

    def slow_for_alice(user_id, since, limit=event_log.BATCH):  # type: ignore[no-untyped-def]
        if user_id == alice.pk:
            stuck.set()
            unstuck.wait(6 * PATIENCE)  # her database read is stuck until the test ends
        return fetch(user_id, since, limit)

    slow = _socket(f"token={alice_token}&presence=false")
    quick = _socket(f"token={bob_token}&presence=false")
    for comm in (slow, quick):
        assert (await comm.connect())[0]
        assert (await comm.receive_json_from())["type"] == "hello"
    try:
        monkeypatch.setattr(event_log, "fetch", slow_for_alice)
        await sync_to_async(_unrendered_match_event)(alice)
        assert await asyncio.to_thread(stuck.wait, PATIENCE), "alice's stream never read"
        # Off the process's one shared sync thread, in case the stuck read were on it.
        await in_thread(event_log.record)(bob.pk, "challenge", {"id": 2})
        # Socket work runs on a pool of threads, not on the shared sync thread where bob's
        # read would queue behind alice's, stuck far longer than this waits.
        frame = await quick.receive_json_from()
        assert frame["type"] == "challenge"
    finally:
        unstuck.set()
        for comm in (slow, quick):
            await comm.disconnect()


@pytest.mark.asyncio
async def test_a_move_reaches_the_opponents_socket_with_its_view_and_no_read(alice, bob, reads):
    """The door renders each player's view in the move's transaction; it comes with the
    wake-up, so the opponent's stream sends it without reading the database, and it is what
    a read would have given (their own cards only)."""
    from games import services

    match = await sync_to_async(lobby_match)(alice, bob, DECK)
    token = await sync_to_async(token_for)(bob)
    comm = _socket(f"token={token}&presence=false")
    assert (await comm.connect())[0]
    try:
        hello = await comm.receive_json_from()
        while not reads:  # the stream's first read, of what came after the hello
            await asyncio.sleep(0.01)
        before = len(reads)
        await sync_to_async(services.submit)(match, 0, {"type": "pass"}, 0)
        frame = await comm.receive_json_from()
        assert len(reads) == before, "the stream read the database for a pushed event"
        assert (frame["type"], frame["seq"]) == ("match", hello["last_seq"] + 1)
        data = frame["data"]
        assert (data["version"], data["seat"], data["superseded"]) == (1, 1, False)
        state = await sync_to_async(load_state)(match)
        mine = player_view(state, 1)
        assert data["view"]["hand"] == mine["hand"]
        assert data["view"]["legal_actions"] == mine["legal_actions"]
        # The same event, read from the log as a reconnecting client would, says the same.
        read = (await sync_to_async(_events)(Api(token), hello["last_seq"]))[0]
        assert read["data"]["view"]["hand"] == data["view"]["hand"]
        assert read["data"]["version"] == data["version"] == data["view"]["version"]
    finally:
        await comm.disconnect()


def test_a_line_is_one_utf8_json_object_whatever_the_names_in_it():
    """Names and reasons in any script arrive as they were written; each line is one object."""
    item = {"type": "challenge", "seq": 3, "data": {"from": "Zoë", "reason": "später ☕\nbye"}}
    line = event_stream._line(item)
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    assert json.loads(line.decode("utf-8")) == item
