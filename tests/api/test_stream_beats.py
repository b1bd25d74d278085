"""The open event streams of a server process keep their players in the lobby and at their
tables with one sign of life for all of them, not one each: a player whose stream stays open
stays online, the sweep having dropped them or not, and a stream closed is no longer beaten."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth.models import User
from django.utils import timezone

from games.models import Seat
from ginsite.asgi import application
from lobby import presence
from lobby.events import log as event_log
from lobby.events import stream as event_stream
from lobby.models import Presence
from tests.games.live_helpers import lobby_match
from tests.games.test_replay import DECK
from tests.sockets import PATIENCE, Socket

from .conftest import token_for

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def _stream_of(user: User) -> Socket:
    token = await sync_to_async(token_for)(user)
    socket = Socket(application, f"/ws/events/?token={token}")
    connected, _code = await socket.connect()
    assert connected
    assert json.loads(await socket.receive_from())["type"] == "hello"
    return socket


def _rows(*users: User) -> dict[str, Presence]:
    return {
        row.user.username: row
        for row in Presence.objects.filter(user__in=users, channel_name__startswith="api-socket:")
        .select_related("user")
        .order_by("pk")
    }


def _age_everything(seconds: float) -> None:
    """Time passes: every sign of life so far is ``seconds`` old."""
    then = timezone.now() - timedelta(seconds=seconds)
    Presence.objects.update(last_seen=then)
    Seat.objects.update(last_active=then)


async def _until(condition, what: str) -> None:  # type: ignore[no-untyped-def]
    loop = asyncio.get_running_loop()
    started = loop.time()
    while not await sync_to_async(condition)():
        assert loop.time() - started < PATIENCE, what
        await asyncio.sleep(0.05)


async def test_open_streams_are_beaten_together_and_a_closed_one_no_more(
    alice: User, bob: User, carol: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(event_stream, "KEEPALIVE_SECONDS", 0.3)
    match = await sync_to_async(lobby_match)(alice, bob, DECK)
    streams = {user.username: await _stream_of(user) for user in (alice, bob, carol)}
    try:
        # Half a minute of quiet, and the sweep dropped carol's row meanwhile.
        await sync_to_async(_age_everything)(30)
        await sync_to_async(Presence.objects.filter(user=carol).delete)()

        def all_beaten() -> bool:
            rows = _rows(alice, bob, carol)
            recent = timezone.now() - timedelta(seconds=5)
            seats = Seat.objects.filter(match=match, last_active__gt=recent)
            return (
                len(rows) == 3
                and all(r.last_seen > recent for r in rows.values())
                # alice and bob are at their table too: both seats count as here.
                and seats.count() == 2
            )

        await _until(all_beaten, "the open streams were not all beaten")
        rows = await sync_to_async(_rows)(alice, bob, carol)
        # alice's and bob's rows in one statement: the same instant; carol's row is back.
        assert rows["alice"].last_seen == rows["bob"].last_seen
        assert await sync_to_async(presence.is_online)(carol.pk)

        # A minute later: past the time a row counts, for closed and open streams alike.
        await streams.pop("carol").disconnect()
        await sync_to_async(_age_everything)(60)
        await _until(
            lambda: all(
                r.last_seen > timezone.now() - timedelta(seconds=5)
                for r in _rows(alice, bob).values()
            ),
            "the streams still open were not beaten",
        )
        # The open ones are back, carol's closed stream was not beaten again.
        assert not await sync_to_async(presence.is_online)(carol.pk)
    finally:
        for socket in streams.values():
            await socket.disconnect()


async def _next_line(socket: Socket) -> dict:
    return json.loads(await socket.receive_from())


async def test_quiet_streams_read_nothing_and_a_lost_wake_up_is_found_by_the_beat(
    alice: User, bob: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(event_stream, "KEEPALIVE_SECONDS", 0.3)
    reads: list[int] = []
    real_fetch = event_log.fetch

    def counted(user_id: int, *args, **kwargs):  # type: ignore[no-untyped-def]
        reads.append(user_id)
        return real_fetch(user_id, *args, **kwargs)

    monkeypatch.setattr(event_log, "fetch", counted)
    streams = [await _stream_of(user) for user in (alice, bob)]
    try:
        # Past each stream's first read, of what came after ``since`` (bob's came after
        # alice's first keep-alive once, with two CI runs at once).
        for stream in streams:
            while (await _next_line(stream))["type"] != "keepalive":
                pass
        read_before = len(reads)
        kinds = [(await _next_line(streams[0]))["type"] for _ in range(4)]
        # A second and more of quiet: keep-alives, and not one read of the log for them.
        assert kinds.count("keepalive") >= 3
        assert reads[read_before:] == []

        # An event stored whose wake-up never came (the pub/sub layer delivers at most once):
        # the process's beat sees alice's log past her stream's cursor and nudges it.
        monkeypatch.setattr(event_log, "group_send_after_commit", lambda *args: None)
        seq = await sync_to_async(event_log.record)(alice.pk, "pool", {"waiting": False})
        line = await _next_line(streams[0])
        while line["type"] in ("keepalive", "presence"):
            line = await _next_line(streams[0])
        assert line["type"] == "pool" and line["seq"] == seq
        # Only alice's stream read the log for it.
        assert set(reads[read_before:]) == {alice.pk}
    finally:
        for socket in streams:
            await socket.disconnect()
