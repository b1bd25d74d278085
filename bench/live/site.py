"""The live run's clients of one running site: pairing and paced play, over their event sockets."""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from collections import Counter
from typing import Any

from websockets.exceptions import ConnectionClosed

from bench.harness.connections import HTTP_TIMEOUT, Http, Reply
from bench.harness.pacing import PUSH_GRACE, Progress, limited, moments, say, sleep_until
from bench.harness.servers import Server
from bench.live.players import Client, Match, Player, choose
from bench.live.proxy import Front
from bench.live.sockets import EventSockets
from ginclient.api import only_seed

PAIR_CONCURRENCY = 8


class Site(EventSockets):
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
