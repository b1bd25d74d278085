"""A player's event stream: the lines both the NDJSON response (``GET /api/v1/events/stream``)
and the websocket (``lobby.events.socket``) send.

A ``hello``, the events after ``since``, then live events as they are announced on the
player's group, a ``presence`` line (how many are online) at most every PRESENCE_EVERY seconds
when that changed, and a ``keepalive`` line whenever it is quiet. While it runs, the player is
in the lobby and at each of their tables. It ends when the token or session it was opened with
ends.
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from collections.abc import AsyncGenerator
from datetime import UTC, datetime
from typing import Any

from channels.layers import get_channel_layer
from pydantic_core import to_json

from games.live import presence as game_presence
from ginsite.lib.after_commit import credentials_group, opened_with
from ginsite.lib.apikit import api_time
from ginsite.lib.channel_reader import ChannelReader
from ginsite.lib.dbwork import in_thread
from lobby import presence
from lobby.events import log as event_log

# A line every this many seconds while nothing else is sent, so proxies and clients can tell a
# quiet stream from a dead one. Also how often the open streams keep their players in the lobby.
KEEPALIVE_SECONDS = 10.0
# A stream says how many are online at most this often, and only when it changed.
PRESENCE_EVERY = 5.0
# ... and, once due, looks for a change at most this often (not after every event it sends).
PRESENCE_LOOK_EVERY = 1.0

log = logging.getLogger(__name__)


class CredentialsEnded(Exception):  # noqa: N818 - a state, not an error of the stream
    """The token or session the stream was opened with was revoked or signed out."""


async def event_lines(
    user: Any,
    since: int | None,
    presence_row: str,
    *,
    credential: tuple[str, Any] = ("token", None),
    with_presence: bool = True,
) -> AsyncGenerator[bytes, None]:
    """The stream of one player, as lines of JSON (see above). ``presence_row`` names its
    lobby presence row; ``credential`` is what it was opened with (``("token", id)`` or
    ``("session", key)``); ``with_presence``: send ``presence`` lines."""
    stream = _Stream(user, presence_row, credential, with_presence)
    await stream.open()
    try:
        await in_thread(_here)(user, presence_row)
        if since is None:
            since = await in_thread(event_log.last_seq)(user.pk)
        stream.cursor = since
        yield _line(await in_thread(event_log.hello)(user.pk, since))
        pushed: dict[str, Any] | None = None
        look = True  # at the log: first for what came after ``since``
        while True:
            if look:
                async for line in stream.events(pushed):
                    yield line
            if with_presence and (line := await stream.presence_line()) is not None:
                yield line
            try:
                news = await stream.wait_for_news()
            except CredentialsEnded:
                return
            if news is None:
                yield _line({"type": "keepalive", "last_seq": stream.cursor})
            # A quiet stream reads nothing: a wake-up it missed is found by its process's beat
            # (``_Beats``), which nudges it. Without a channel layer nothing wakes it at all.
            look = news is not None or stream.reader is None
            pushed = news.get("line") if news is not None else None
    finally:
        await stream.close()


class _Stream:
    """What one stream keeps between its lines: its channel in the player's groups, the last
    event number sent, and when it last said how many are online."""

    def __init__(
        self, user: Any, presence_row: str, credential: tuple[str, Any], with_presence: bool
    ) -> None:
        self.user = user
        self.presence_row = presence_row
        self.credential = credential
        self.layer = get_channel_layer()
        self.groups = (event_log.group_name(user.pk), credentials_group(user.pk))
        self.reader = ChannelReader(self.layer) if self.layer is not None else None
        self.cursor = 0
        self.presence_shown = 0.0
        self.presence_due = 0.0

    async def open(self) -> None:
        if self.reader is not None:
            await self.reader.open()
            for group in self.groups:
                await self.layer.group_add(group, self.reader.channel)
        _beats().add(self)

    async def close(self) -> None:
        _beats().discard(self)
        if self.reader is not None:
            try:
                for group in self.groups:
                    await self.layer.group_discard(group, self.reader.channel)
            finally:
                await self.reader.close()
        await in_thread(presence.left)(self.presence_row)

    async def events(self, pushed: dict[str, Any] | None) -> AsyncGenerator[bytes, None]:
        """Every event not yet sent: the one that came with its wake-up, as it is delivered
        (no read needed), or what the database holds, in batches."""
        if pushed is not None and pushed["seq"] == self.cursor + 1:
            self.cursor = pushed["seq"]
            yield _line(pushed)
            return
        while True:
            batch = await in_thread(_next_batch)(self.user, self.cursor)
            for item in batch:
                self.cursor = max(self.cursor, item["seq"])
                yield _line(item)
            if len(batch) < event_log.BATCH:
                return

    async def presence_line(self) -> bytes | None:
        """How many are online, when that changed since the last such line and it is due."""
        if time.monotonic() < self.presence_due:
            return None
        note = await _beats().snapshot()
        if note is None or note["at"] <= self.presence_shown:
            self.presence_due = time.monotonic() + PRESENCE_LOOK_EVERY
            return None
        self.presence_shown, self.presence_due = note["at"], time.monotonic() + PRESENCE_EVERY
        at = datetime.fromtimestamp(note["at"], tz=UTC)
        return _line({"type": "presence", "online": note["online"], "at": api_time(at)})

    async def wait_for_news(self) -> dict[str, Any] | None:
        """Wait up to KEEPALIVE_SECONDS for an event numbered past the cursor: its wake-up
        message, or None if none came. Wake-ups of events already sent (several events read
        in one batch each announce themselves) are taken off the channel without reading the
        database again. Raises ``CredentialsEnded`` when the stream's token or session ends."""
        if self.reader is None:
            await asyncio.sleep(KEEPALIVE_SECONDS)
            return None
        deadline = time.monotonic() + KEEPALIVE_SECONDS
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            message = await self.reader.get(timeout=left)
            if message is None:
                return None
            if message.get("type") == "credentials.ended":
                if opened_with(message, self.credential):
                    raise CredentialsEnded
                continue
            if message.get("seq", self.cursor + 1) > self.cursor:
                return message

    def nudge(self) -> None:
        """Look at the log: an event was stored that no wake-up brought (the pub/sub layer
        delivers at most once)."""
        if self.reader is not None:
            self.reader.put({"type": "look"})


def _line(item: dict[str, Any]) -> bytes:
    # pydantic-core's encoder (Rust, already here for django-ninja): compact UTF-8 JSON in a
    # quarter of ``json.dumps``'s time for a match event with its view, on the event loop.
    return to_json(item, fallback=str) + b"\n"


def _here(user: Any, presence_row: str) -> None:
    """An open stream is its player being here: in the lobby, and at each of their tables."""
    presence.seen(user, presence_row)
    game_presence.player_active(user.pk)


class _Beats:
    """The open streams of one server process (its event loop), looked after together every
    KEEPALIVE_SECONDS: one sign of life for all of them (their presence rows and their seats,
    in a few statements, where each stream spent three of its own and a thread's turn), and one
    look for the events any of them missed (a stream whose player has an event past its cursor
    is nudged; each used to read the log at every keep-alive: 500 quiet streams, 50 reads a
    second). The lobby's count is read once for all of them too, at most every
    PRESENCE_LOOK_EVERY (docs/performance.md, the pool)."""

    def __init__(self) -> None:
        self.streams: dict[str, _Stream] = {}  # by presence row
        self.task: asyncio.Task[None] | None = None
        self.count: tuple[float, asyncio.Future[dict[str, Any] | None]] | None = None

    def add(self, stream: _Stream) -> None:
        self.streams[stream.presence_row] = stream
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._beat())

    def discard(self, stream: _Stream) -> None:
        self.streams.pop(stream.presence_row, None)
        if not self.streams and self.task is not None:
            self.task.cancel()

    async def _beat(self) -> None:
        while self.streams:
            await asyncio.sleep(KEEPALIVE_SECONDS)
            streams = list(self.streams.values())
            if not streams:
                continue
            try:
                latest = await in_thread(_still_here)({s.presence_row: s.user for s in streams})
            except Exception:  # the next beat tries again; a stream goes on regardless
                log.exception("the event streams' sign of life failed")
                continue
            for stream in streams:
                if latest.get(stream.user.pk, 0) > stream.cursor:
                    stream.nudge()

    def snapshot(self) -> asyncio.Future[dict[str, Any] | None]:
        """``presence.snapshot()``, read at most once every PRESENCE_LOOK_EVERY for all."""
        now = time.monotonic()
        if self.count is None or now - self.count[0] >= PRESENCE_LOOK_EVERY:
            read = asyncio.ensure_future(in_thread(presence.snapshot)())
            self.count = (now, read)
        return asyncio.shield(self.count[1])


_beats_of_loops: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Beats] = (
    weakref.WeakKeyDictionary()
)


def _beats() -> _Beats:
    loop = asyncio.get_running_loop()
    if loop not in _beats_of_loops:
        _beats_of_loops[loop] = _Beats()
    return _beats_of_loops[loop]


def _still_here(rows: dict[str, Any]) -> dict[int, int]:
    """Every open stream's sign of life (``rows``: presence row -> user); each player's last
    event number."""
    players = {user.pk for user in rows.values()}
    presence.heartbeat_all(rows)
    game_presence.players_active(players)
    return event_log.last_seqs(players)


def _next_batch(user: Any, cursor: int) -> list[dict[str, Any]]:
    return event_log.deliver(user, event_log.fetch(user.pk, cursor))
