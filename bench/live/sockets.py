"""The live run's event sockets: opened, read and counted, idle ones for the memory measure."""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import ssl
import time
from collections import Counter

from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed

from bench.harness.connections import (
    CONNECT_CONCURRENCY,
    HTTP_TIMEOUT,
    _why,
    close_sockets,
    open_socket,
)
from bench.harness.pacing import Progress, limited
from bench.harness.servers import Server
from bench.live.players import Match, Player

# The server sends a keep-alive line every 10 s of quiet: an open socket silent for longer than
# this has stopped (the "silent socket" of a pump that failed without closing it).
SILENT_AFTER = 15.0
# The idle sockets of the memory measure, per player: well within the API budget a player's
# sockets count against (``API_RATE_LIMIT``, 300 a minute), which play spends from too.
IDLE_SOCKETS_PER_PLAYER = 100


class EventSockets:
    """The players' event sockets of one running site: opened one by one, read and counted
    (events lost, repeated, late; pushes timed), idle ones opened for the memory measure, and
    closed. ``Site`` makes the state they share with pairing and play."""

    servers: list[Server]
    tls: ssl.SSLContext | None
    players: list[Player]
    matches: dict[str, Match]
    errors: Counter[str]
    push: list[float]
    push_spans: list[tuple[float, float]]
    pending: dict[tuple[str, int, str], float]
    last_frame_at: float
    closing: bool

    # Event sockets.

    def socket_url(self, player: Player) -> str:
        where = f"wss://localhost:{player.port}" if self.tls else f"ws://127.0.0.1:{player.port}"
        return f"{where}/ws/events/?token={player.token}"

    async def connect_all(self) -> None:
        async def join(player: Player) -> None:
            # Connected means the hello has come: the stream has put the player in the lobby
            # and counts its events from here (without ``since``, earlier ones are not sent).
            try:
                player.ws = await open_socket(self.socket_url(player), self.tls)
                async with asyncio.timeout(HTTP_TIMEOUT):
                    hello = await player.ws.recv()
                self.on_frame(player, str(hello))
            except (OSError, TimeoutError, ConnectionClosed) as error:
                self.errors[f"event socket not opened: {_why(error)}"] += 1
                return
            player.listener = asyncio.create_task(self.listen(player, player.ws))

        # One at a time, as players arrive in a lobby: each one's arrival is announced to all
        # who are already there. (Arrivals racing each other would announce them before the
        # newcomers' streams start counting, and hide part of the fan-out.)
        progress = Progress("connected event sockets", len(self.players))
        await limited([lambda p=p: join(p) for p in self.players], 1, progress)

    async def listen(self, player: Player, ws: ClientConnection) -> None:
        """Read the player's events; when the server closes the socket, count it and open
        it again with ``since`` set to the last event read, as a client should."""
        while True:
            with contextlib.suppress(ConnectionClosed):
                async for frame in ws:
                    text = frame if isinstance(frame, str) else frame.decode()
                    try:
                        self.on_frame(player, text)
                    except (ValueError, KeyError, TypeError):
                        self.errors["unreadable event frame"] += 1
            if self.closing:
                return
            self.errors[f"event socket closed by the server ({ws.close_code})"] += 1
            since = (player.next_seq or 1) - 1
            try:
                url = f"{self.socket_url(player)}&since={since}"
                ws = player.ws = await open_socket(url, self.tls)
            except (OSError, TimeoutError) as error:
                self.errors[f"event socket not reopened: {type(error).__name__}"] += 1
                return
            if self.closing:
                await ws.close()
                return

    def on_frame(self, player: Player, text: str) -> None:
        now = self.last_frame_at = time.perf_counter()
        if player.last_frame_at is not None:
            player.longest_silence = max(player.longest_silence, now - player.last_frame_at)
        player.last_frame_at = now
        message = json.loads(text)
        kind = str(message.get("type"))
        player.frames[kind] += 1
        player.frame_bytes[kind] += len(text.encode())
        if kind == "hello":
            if player.next_seq is None:
                player.next_seq = int(message["last_seq"]) + 1
            return
        if kind == "answer":
            waiting = player.answers.pop(str(message.get("id")), None)
            if waiting is not None and not waiting.done():
                waiting.set_result(message)
            return
        seq = message.get("seq")
        if isinstance(seq, int) and player.next_seq is not None:
            if seq >= player.next_seq:
                player.seq_gaps += seq - player.next_seq
                player.next_seq = seq + 1
            else:
                player.seq_repeats += 1
        data = message.get("data") or {}
        if kind == "challenge" and data.get("direction") == "incoming":
            future = player.challenge_seen(int(data["id"]))
            if not future.done():
                future.set_result(None)
        elif kind == "match":
            match_id, version = str(data["match"]), int(data["version"])
            heard = player.versions.setdefault(match_id, Counter())
            if heard and version < max(heard):
                player.versions_backwards += 1
            heard[version] += 1
            started = self.pending.pop((match_id, version, player.username), None)
            if started is not None:
                self.push.append(now - started)
                self.push_spans.append((started, now))
            match = self.matches.get(match_id)
            if match is not None:
                match.version = max(match.version, version)
            if data.get("view"):
                player.remember(match_id, data["view"])

    async def quiet(self, gap: float, longest: float) -> float:
        """Wait until no frame has arrived for ``gap`` seconds (at most ``longest``)."""
        start = time.perf_counter()
        while time.perf_counter() - start < longest:
            if time.perf_counter() - self.last_frame_at >= gap:
                break
            await asyncio.sleep(0.1)
        return time.perf_counter() - start

    def integrity(self) -> dict[str, int]:
        """Events lost or repeated: gaps and repeats in each player's numbering, and the match
        versions each player should have heard of but did not, or heard of twice. A player
        should hear of every version either player heard of, and of the last one. (Not of every
        number from 0: the server deals a hand whose players sent no seed in time with both
        seeds at once, two versions in one announcement.)"""
        missing = repeated = 0
        for match in self.matches.values():
            heard = [player.versions.get(match.id, Counter()) for player in match.players]
            announced = {match.version, *heard[0], *heard[1]}
            for seen in heard:
                missing += sum(1 for v in announced if v not in seen)
                repeated += sum(count - 1 for count in seen.values())
        now = time.perf_counter()
        silences = [
            max(p.longest_silence, now - p.last_frame_at)
            for p in self.players
            if p.last_frame_at is not None
        ]
        return {
            "seq_gaps": sum(p.seq_gaps for p in self.players),
            "seq_repeats": sum(p.seq_repeats for p in self.players),
            "versions_missing": missing,
            "versions_repeated": repeated,
            "versions_backwards": sum(p.versions_backwards for p in self.players),
            "longest_silence_s": round(max(silences, default=0.0), 1),
            "silent_sockets": sum(1 for s in silences if s > SILENT_AFTER),
        }

    async def idle_socket_rss(self, count: int, players: list[Player]) -> float:
        """How much the servers' RSS grows per idle event socket: ``count`` more sockets of
        ``players`` (round robin, each on its own server), who are online already so that
        nothing changes in the lobby. Bytes per socket."""
        before = sum(s.rss() for s in self.servers)
        sockets: list[ClientConnection] = []

        async def open_one(player: Player) -> None:
            try:
                ws = await open_socket(self.socket_url(player), self.tls)
                sockets.append(ws)
                async with asyncio.timeout(HTTP_TIMEOUT):
                    await ws.recv()  # the hello: the stream is up
            except (OSError, TimeoutError, ConnectionClosed) as error:
                self.errors[f"idle socket: {_why(error)}"] += 1

        progress = Progress("opened idle sockets", count)
        chosen = [players[i % len(players)] for i in range(count)]
        await limited([lambda p=p: open_one(p) for p in chosen], CONNECT_CONCURRENCY, progress)
        await asyncio.sleep(2)
        after = sum(s.rss() for s in self.servers)
        await close_sockets(sockets)
        return (after - before) / max(1, len(sockets))

    async def fresh_idle_socket_rss(self, count: int) -> float:
        """The same on servers nobody has used yet (their heaps hold no memory freed by
        earlier work for new sockets to reuse): one player per server first opens a socket
        that warms the code paths and brings them online, then ``count`` idle ones. All are
        closed again before the lobby fills up. Each player opens at most
        ``IDLE_SOCKETS_PER_PLAYER`` of them: every socket opened counts against its player's
        API budget (300 a minute), and a player past it is refused (4429) for the rest of
        the minute, its own socket and its challenge included."""
        owners = max(len(self.servers), math.ceil(count / IDLE_SOCKETS_PER_PLAYER))
        firsts = self.players[:owners]
        warm = [await open_socket(self.socket_url(p), self.tls) for p in firsts]
        for ws in warm:
            await ws.recv()
        try:
            return await self.idle_socket_rss(count, firsts)
        finally:
            await close_sockets(warm)

    async def close(self) -> None:
        self.closing = True
        await close_sockets([p.ws for p in self.players if p.ws is not None])
        await asyncio.gather(*(p.listener for p in self.players if p.listener is not None))
        for player in self.players:
            player.http.close()
