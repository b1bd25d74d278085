"""The live run's clients of one running site: event sockets, pairing, paced play."""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import time
import uuid
from collections import Counter
from typing import Any

from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed

from bench.harness.connections import (
    CONNECT_CONCURRENCY,
    HTTP_TIMEOUT,
    Http,
    Reply,
    _why,
    close_sockets,
    open_socket,
)
from bench.harness.pacing import PUSH_GRACE, Progress, limited, moments, say, sleep_until
from bench.harness.servers import Server
from bench.live.players import Client, Match, Player, choose
from bench.live.proxy import Front
from ginclient.api import only_seed

# The server sends a keep-alive line every 10 s of quiet: an open socket silent for longer than
# this has stopped (the "silent socket" of a pump that failed without closing it).
SILENT_AFTER = 15.0


# The idle sockets of the memory measure, per player: well within the API budget a player's
# sockets count against (``API_RATE_LIMIT``, 300 a minute), which play spends from too.
IDLE_SOCKETS_PER_PLAYER = 100


PAIR_CONCURRENCY = 8


class Site:
    """The benchmark's clients of one running site."""

    def __init__(
        self,
        servers: list[Server],
        credentials: list[tuple[str, str]],
        client: Client,
        front: Front | None = None,
    ) -> None:
        self.servers, self.client = servers, client
        # Through nginx (``--via-proxy``) every player connects to it, over TLS.
        self.tls = front.tls if front else None
        fresh = client.connections == "fresh"
        self.players = [
            Player(name, token, port, Http(port, token, fresh=fresh, tls=self.tls))
            for i, (name, token) in enumerate(credentials)
            for port in [front.port if front else servers[i % len(servers)].port]
        ]
        self.matches: dict[str, Match] = {}
        self.errors: Counter[str] = Counter()
        self.skipped: Counter[str] = Counter()
        self.post_rtt: list[float] = []
        self.get_rtt: list[float] = []
        self.push: list[float] = []
        self.push_spans: list[tuple[float, float]] = []  # (sent, heard), for --timeline
        self.pending: dict[tuple[str, int, str], float] = {}
        self.last_frame_at = time.perf_counter()
        self.closing = False

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

    # Pairing through the public API.

    async def pair_all(self) -> None:
        pairs = [(self.players[i], self.players[i + 1]) for i in range(0, len(self.players), 2)]
        progress = Progress("paired matches", len(pairs))
        await limited(
            [lambda a=a, b=b: self.pair(a, b) for a, b in pairs], PAIR_CONCURRENCY, progress
        )

    async def pair(self, a: Player, b: Player) -> None:
        """``a`` challenges ``b``; ``b`` sees it on its event socket and accepts; both read
        the match. Up to three tries."""
        for _attempt in range(3):
            reply = await self.call(a, "POST /challenges", "/api/v1/challenges", {"to": b.username})
            if reply is None or reply.status != 201:
                await asyncio.sleep(1)
                continue
            challenge_id = int(reply.json()["id"])
            try:
                async with asyncio.timeout(HTTP_TIMEOUT):
                    await b.challenge_seen(challenge_id)
            except TimeoutError:
                self.errors["challenge event not received within 30 s"] += 1
            reply = await self.call(
                b, "POST /challenges/{id}/accept", f"/api/v1/challenges/{challenge_id}/accept", {}
            )
            if reply is None or reply.status != 201:
                await asyncio.sleep(1)
                continue
            match = Match(str(reply.json()["match"]), (a, b))
            self.matches[match.id] = match
            for player in (a, b):
                reply = await self.call(player, "GET /matches/{id}", f"/api/v1/matches/{match.id}")
                if reply is not None and reply.status == 200:
                    view = reply.json()["view"]
                    player.remember(match.id, view)
                    await self.seed_at_once(match, player, view)
            return

    async def call(
        self, player: Player, label: str, path: str, payload: Any = None
    ) -> Reply | None:
        """A request counted in the errors (under ``label``, "METHOD /route") when it fails
        or is refused; None when no answer came."""
        method = label.split()[0]
        try:
            reply = await player.http.call(method, path, payload, idempotent=method == "POST")
        except TimeoutError:
            self.errors[f"{label}: timeout"] += 1
            return None
        except (OSError, asyncio.IncompleteReadError) as error:
            self.errors[f"{label}: {type(error).__name__}"] += 1
            return None
        if not 200 <= reply.status < 300:
            self.errors[f"{label}: {reply.status} {reply.code}"] += 1
        return reply

    # Paced play.

    def mover(self, match: Match) -> tuple[Player, dict[str, Any]] | None:
        """Whoever may act on the newest version, going by what they have been told."""
        for player in match.players:
            view = player.views.get(match.id)
            if view is None or view["version"] != match.version:
                continue
            if view["phase"] == "match_over":
                match.done = True
                return None
            if view["legal_actions"]:
                return player, view
        return None

    async def move(self, match: Match, player: Player, view: dict[str, Any]) -> None:
        match.in_flight = True
        try:
            if self.client.reads == "get":
                read = await self.read(match, player)
                if read is None or not read["legal_actions"]:
                    return  # moved on meanwhile (the opponent resigned, the time ran out)
                view = read
            await self.post_move(match, player, view)
        finally:
            match.in_flight = False

    async def read(self, match: Match, player: Player) -> dict[str, Any] | None:
        """The player's view of the match, read (``GET /matches/{id}``) and remembered."""
        started = time.perf_counter()
        reply = await self.call(player, "GET /matches/{id}", f"/api/v1/matches/{match.id}")
        if reply is None or reply.status != 200:
            return None
        self.get_rtt.append(time.perf_counter() - started)
        view: dict[str, Any] = reply.json()["view"]
        player.remember(match.id, view)
        return view

    async def post_move(self, match: Match, player: Player, view: dict[str, Any]) -> None:
        opponent = match.players[1] if player is match.players[0] else match.players[0]
        version = int(view["version"])
        waiting = (match.id, version + 1, opponent.username)
        started = self.pending[waiting] = time.perf_counter()
        status, body = await self.send_move(match, player, choose(view), version)
        if status != 200:
            self.pending.pop(waiting, None)
            if status == 409:
                await self.read(match, player)
            return
        self.post_rtt.append(time.perf_counter() - started)
        match.moves += 1
        player.remember(match.id, body["view"])
        match.version = max(match.version, int(body["version"]))
        if body["status"] != "active":
            match.done = True

    async def send_move(
        self, match: Match, player: Player, action: dict[str, Any], version: int
    ) -> tuple[int, Any]:
        """``action`` on ``version`` through the client's door: its answer's status and body
        (0 when none came)."""
        payload = {"action": action, "version": version}
        if self.client.moves == "socket":
            return await self.act(match, player, payload)
        reply = await self.call(
            player, "POST /matches/{id}/actions", f"/api/v1/matches/{match.id}/actions", payload
        )
        return (0, None) if reply is None else (reply.status, reply.json())

    async def seed_at_once(self, match: Match, player: Player, view: dict[str, Any]) -> None:
        """The player's seed for a deal that waits for it, sent as soon as the player reads
        the match, as a client does (``ginclient``'s bot, the table page): a seed left for the
        paced moves would come after the server dealt without it, 10 s on, and be refused as
        too late. Not counted as a move of play."""
        if not only_seed(view["legal_actions"]):
            return
        status, body = await self.send_move(match, player, {"type": "seed"}, int(view["version"]))
        if status == 200:
            player.remember(match.id, body["view"])
            match.version = max(match.version, int(body["version"]))

    async def act(self, match: Match, player: Player, payload: dict[str, Any]) -> tuple[int, Any]:
        """The move as an ``act`` frame over the player's event socket, with an idempotency key
        as every POST of ours carries: its answer's status and body (0 when none came)."""
        label = "act over the event socket"
        ident = uuid.uuid4().hex
        answered = player.answers[ident] = asyncio.get_running_loop().create_future()
        command = {"type": "act", "id": ident, "match": match.id, **payload}
        command["idempotency_key"] = ident
        if player.ws is None:
            self.errors[f"{label}: no socket"] += 1
            return 0, None
        try:
            await player.ws.send(json.dumps(command))
            async with asyncio.timeout(HTTP_TIMEOUT):
                answer = await answered
        except (TimeoutError, ConnectionClosed) as error:
            self.errors[f"{label}: {type(error).__name__}"] += 1
            return 0, None
        finally:
            player.answers.pop(ident, None)
        status, body = int(answer["status"]), answer["body"]
        if status != 200:
            self.errors[f"{label}: {status} {body.get('code', '')}"] += 1
        return status, body

    async def play(self, seconds: float) -> None:
        matches = list(self.matches.values())
        moves: set[asyncio.Task[None]] = set()
        start = time.perf_counter() + 0.5
        end = start + seconds

        async def pace(i: int, match: Match) -> None:
            for moment in moments(i, len(matches), start, end, self.client.pace):
                if match.done:
                    return
                await sleep_until(moment)
                if match.in_flight:
                    self.skipped["previous move still in flight"] += 1
                    continue
                chosen = self.mover(match)
                if chosen is None:
                    if not match.done:
                        self.skipped["mover not yet told of the last move"] += 1
                    continue
                task = asyncio.create_task(self.move(match, *chosen))
                moves.add(task)
                task.add_done_callback(moves.discard)

        async def report() -> None:
            while True:
                await asyncio.sleep(5)
                left = max(0.0, end - time.perf_counter())
                errors = sum(self.errors.values())
                say(f"  playing: {left:4.0f} s left, {len(self.post_rtt)} moves, {errors} errors")

        reporter = asyncio.create_task(report())
        try:
            await asyncio.gather(*(pace(i, m) for i, m in enumerate(matches)))
            if moves:
                await asyncio.gather(*list(moves))
            # Every player, mover or not, should hear of every version; give the last ones time.
            deadline = time.perf_counter() + PUSH_GRACE
            while self.pending or self.integrity()["versions_missing"]:
                if time.perf_counter() > deadline:
                    break
                await asyncio.sleep(0.05)
        finally:
            reporter.cancel()
        if self.pending:
            self.errors[f"push not received within {PUSH_GRACE:.0f} s"] += len(self.pending)
            self.pending.clear()

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
