"""Quick-pairing benchmark: ``python -m bench.pool [--players 500] [--config embedded]``.

Starts the site as ``bench.live`` does (``embedded``: a SQLite file and one daphne; ``pg1`` /
``pg2``: PostgreSQL and Redis with one or two daphne workers, a fresh database dropped at the
end) and makes the players with API tokens. Each player then does what ``python -m ginclient
pair`` does, no faster and no cheaper:

1. holds its ``/ws/events/`` socket (opened before the burst, a few at a time: the players are
   in the lobby already) and, when the server closes it, opens it again with ``since`` (counted);
2. at the same moment as every other player, ``POST /api/v1/pool`` (standard to 100, casual) on
   a fresh connection, with an ``Idempotency-Key`` that a retry keeps; a 429 or 503 is sent
   again after its ``Retry-After``; a 409 (already waiting) is followed by ``GET /api/v1/pool``;
3. waits for "paired" (in the join's answer or as an event on its socket);
4. opens the match: ``GET /api/v1/matches/{id}`` on a fresh connection.

It reports the time from the first join until the last player heard it was paired (the goal is
under 10 s for 500) and until the last one had its match open, the joins' round trips, the
server CPU per pairing (the daphne processes; with PostgreSQL also its backends for the site's
database, and the whole machine), errors, and what the database says afterwards
(``bench.pool.check``: nobody paired twice, no pairing a player has no event of). Progress
goes to stderr once a second, results to stdout; it never asserts.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import shutil
import sys
import time
import uuid
from collections import Counter
from contextlib import ExitStack
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed, WebSocketException

from bench.harness.configs import CONFIGS, site_database
from bench.harness.connections import CONNECT_CONCURRENCY, HTTP_TIMEOUT, Http, Reply, open_socket
from bench.harness.meters import Meter, sampled
from bench.harness.pacing import Progress, limited, say
from bench.harness.processes import pace_ms
from bench.harness.servers import SERVERS, run_quiet, start_servers
from bench.harness.stats import summarize

GIVE_UP_SECONDS = 120.0
JOIN_TRIES = 8
RECONNECT_PAUSE = 0.5
RECONNECT_TRIES = 4


@dataclass(eq=False)
class Pooled:
    """One player: its socket, its join, and when it heard of its match and opened it."""

    username: str
    token: str
    port: int
    ws: ClientConnection | None = None
    listener: asyncio.Task[None] | None = None
    cursor: int | None = None  # the last event number seen (for ``since``)
    socket_closes: int = 0
    join_status: int | None = None
    join_seconds: float | None = None
    join_retries: int = 0
    matches: list[str] = field(default_factory=list)
    heard_via: str = ""
    paired: asyncio.Event = field(default_factory=asyncio.Event)
    paired_at: float | None = None
    open_status: int | None = None
    opened_at: float | None = None
    errors: list[str] = field(default_factory=list)

    def paired_into(self, match: str, via: str) -> None:
        if match not in self.matches:
            self.matches.append(match)
        if self.paired_at is None:
            self.paired_at, self.heard_via = time.perf_counter(), via
        self.paired.set()

    async def call(self, method: str, path: str, body: Any = None, key: str = "") -> Reply:
        """One request on a connection of its own, as ``ginclient`` (urllib) sends each; no
        answer within HTTP_TIMEOUT (or a connection refused or dropped) is status 0."""
        http = Http(self.port, self.token)
        headers = ["Connection: close"] + ([f"Idempotency-Key: {key}"] if key else [])
        try:
            return await http.call(method, path, body, headers=headers)
        except (OSError, TimeoutError, asyncio.IncompleteReadError) as gone:
            self.errors.append(f"{method} {path.split('/')[3]}: {type(gone).__name__}")
            return Reply(0, b"")
        finally:
            http.close()


# --- The event socket ---------------------------------------------------------------------------


async def connect(player: Pooled) -> None:
    since = f"&since={player.cursor}" if player.cursor is not None else ""
    url = f"ws://127.0.0.1:{player.port}/ws/events/?token={player.token}{since}"
    player.ws = await open_socket(url)
    async with asyncio.timeout(HTTP_TIMEOUT):
        hello = json.loads(await player.ws.recv())  # events from here on reach this socket
    if player.cursor is None:
        player.cursor = int(hello["since"])
    player.listener = asyncio.create_task(listen(player, player.ws))


async def listen(player: Pooled, ws: ClientConnection) -> None:
    try:
        async for frame in ws:
            message = json.loads(frame)
            if "seq" in message:
                player.cursor = max(player.cursor or 0, int(message["seq"]))
            if message.get("type") == "paired":
                player.paired_into(str(message["data"]["match"]), "event")
    except ConnectionClosed:
        pass
    if ws.close_code != 1000:
        # Closed by the server (4500: its stream failed): a client reconnects with since=N,
        # and again after a pause that doubles, as ``ginclient``'s stream does.
        player.socket_closes += 1
        player.errors.append(f"socket closed by the server ({ws.close_code})")
        for attempt in range(RECONNECT_TRIES):
            await asyncio.sleep(RECONNECT_PAUSE * 2**attempt)
            with contextlib.suppress(OSError, TimeoutError, WebSocketException):
                await connect(player)
                return
        player.errors.append("socket not reopened")


# --- Join, wait, open ---------------------------------------------------------------------------


async def join(player: Pooled) -> None:
    """``POST /pool`` as ``ginclient pair`` does, but also again after a 503 (the server too
    busy for now) as after a 429, after the ``Retry-After`` it asks for, with the same key."""
    begun, key = time.perf_counter(), uuid.uuid4().hex
    body = {"preset": "standard", "target": 100}
    reply = Reply(0, b"")
    for _try in range(JOIN_TRIES):
        reply = await player.call("POST", "/api/v1/pool", body, key)
        if reply.status not in (0, 429, 503):
            break
        player.join_retries += 1
        await asyncio.sleep(float(reply.headers.get("retry-after", "1")))
    player.join_seconds = time.perf_counter() - begun
    player.join_status = reply.status
    if reply.status == 409:  # already waiting (an earlier try got through): where are we?
        reply = await player.call("GET", "/api/v1/pool")
    answer = reply.json() if reply.status in (200, 201) else None
    if answer is None and reply.status:
        player.errors.append(f"join answered {reply.status}: {reply.code}")
    elif answer.get("status") == "paired":
        player.paired_into(str(answer["match"]), "answer")


async def one_player(player: Pooled, deadline: float) -> None:
    await join(player)
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(max(0.0, deadline - time.perf_counter())):
            await player.paired.wait()
    if not player.matches:
        return
    reply = await player.call("GET", f"/api/v1/matches/{player.matches[0]}")
    player.open_status = reply.status
    if reply.status == 200:
        player.opened_at = time.perf_counter()
    elif reply.status:
        player.errors.append(f"open match answered {reply.status}")


async def report_progress(players: list[Pooled], begun: float) -> None:
    """A line a second while the burst runs."""
    while True:
        await asyncio.sleep(1.0)
        answered = sum(1 for p in players if p.join_status is not None)
        paired = sum(1 for p in players if p.paired_at is not None)
        opened = sum(1 for p in players if p.opened_at is not None)
        errors = sum(len(p.errors) for p in players)
        say(
            f"  {time.perf_counter() - begun:5.1f} s: joins answered {answered}, "
            f"paired {paired}, matches open {opened} of {len(players)}; errors {errors}"
        )


# --- A run --------------------------------------------------------------------------------------


async def setup(stack: ExitStack, args: argparse.Namespace) -> dict[str, str]:
    """The environment of a fresh, migrated site database."""
    env, log_dir = await site_database(stack, CONFIGS[args.config], args, "bench_pool")
    env["BENCH_LOG_DIR"] = str(log_dir)
    return env


async def idle_cpu(meter: Meter, seconds: float) -> dict[str, float]:
    """What the servers spend per second with every player's socket open and nobody doing
    anything (the streams' keep-alives and heartbeats): part of any second of the burst."""
    say(f"measuring the servers' CPU with {seconds:.0f} s of idle sockets")
    meter.begin()
    await asyncio.sleep(seconds)
    used = meter.end()
    return {f"idle_{k}_per_s": round(used[k] / seconds, 3) for k in ("servers", "postgres")}


async def burst(
    players: list[Pooled], meter: Meter, spy: str | None
) -> tuple[float, dict[str, float]]:
    """Every player joins at once; until all have their match open (or GIVE_UP_SECONDS)."""
    say(f"{len(players)} players join the pool at once")
    with sampled(meter.servers, spy):
        meter.begin()
        begun = time.perf_counter()
        ticker = asyncio.create_task(report_progress(players, begun))
        try:
            deadline = begun + GIVE_UP_SECONDS
            await asyncio.gather(*(one_player(p, deadline) for p in players))
        finally:
            ticker.cancel()
        return begun, meter.end()


async def run(args: argparse.Namespace) -> dict[str, Any]:
    n = args.players
    config = CONFIGS[args.config]
    with ExitStack() as stack:
        env = await setup(stack, args)
        say(f"creating {n} players with API tokens")
        out = await run_quiet([sys.executable, "-m", "bench.harness.players", str(n), "q"], env)
        credentials = [(str(u), str(t)) for u, t in json.loads(out)]
        say(f"starting the site on {config.workers} {args.server} worker(s)")
        log_dir = Path(env["BENCH_LOG_DIR"])
        servers = start_servers(
            stack, "site", "ginsite.asgi:application", config.workers, env, log_dir, args.server
        )
        await asyncio.gather(*(s.wait_ready("/api/v1/me") for s in servers))
        players = [
            Pooled(username, token, servers[i % len(servers)].port)
            for i, (username, token) in enumerate(credentials)
        ]
        try:
            progress = Progress("event sockets", n)
            await limited([lambda p=p: connect(p) for p in players], CONNECT_CONCURRENCY, progress)
            meter = Meter(servers, env["DATABASE_URL"], redis=False)
            idle = await idle_cpu(meter, args.idle_seconds)
            begun, cpu = await burst(players, meter, args.py_spy)
        finally:
            for p in players:
                if p.listener is not None:
                    p.listener.cancel()
            await limited([lambda p=p: p.ws.close() for p in players if p.ws], 8)
            if args.keep_logs:
                for server in servers:
                    shutil.copy(server.log, Path(args.keep_logs) / server.log.name)
        checked = json.loads(await run_quiet([sys.executable, "-m", "bench.pool.check"], env))
        tracebacks = sum(s.log.read_text(errors="replace").count("Traceback") for s in servers)
    result = result_of(
        config.title_under(args.server), players, begun, {**cpu, **idle}, checked, tracebacks
    )
    return {**result, "server": args.server}


def result_of(
    title: str,
    players: list[Pooled],
    begun: float,
    cpu: dict[str, float],
    checked: dict[str, Any],
    tracebacks: int,
) -> dict[str, Any]:
    n = len(players)
    left = [p for p in players if p.paired_at is None]
    pairs = len({m for p in players for m in p.matches})
    seated = Counter(m for p in players for m in p.matches)

    def until(moments: list[float | None]) -> float | None:
        if any(m is None for m in moments):
            return None
        return round(max(m for m in moments if m is not None) - begun, 2)

    return {
        "config": title,
        "players": n,
        "paired_players": n - len(left),
        "matches": pairs,
        "seconds_until_all_paired": until([p.paired_at for p in players]),
        "seconds_until_all_opened": until([p.opened_at for p in players]),
        "join_ms": asdict(summarize(p.join_seconds for p in players if p.join_seconds)),
        "join_statuses": dict(Counter(str(p.join_status) for p in players)),
        "join_retries": sum(p.join_retries for p in players),
        "heard_via": dict(Counter(p.heard_via for p in players if p.heard_via)),
        "socket_closes": sum(p.socket_closes for p in players),
        "errors": dict(Counter(e for p in players for e in p.errors)),
        "server_tracebacks": tracebacks,
        "cpu_seconds": cpu,
        "server_cpu_ms_per_pairing": round(1000 * cpu["servers"] / pairs, 1) if pairs else None,
        "postgres_cpu_ms_per_pairing": round(1000 * cpu["postgres"] / pairs, 1) if pairs else None,
        "players_paired_twice": sum(1 for p in players if len(p.matches) > 1),
        "matches_heard_by_one": sum(1 for k in seated.values() if k != 2),
        "database": checked,
    }


def render(result: dict[str, Any]) -> str:
    def seconds(key: str) -> str:
        value = result[key]
        return f"{value:.2f} s" if value is not None else "not all"

    join, cpu, db = result["join_ms"], result["cpu_seconds"], result["database"]
    ms = {k: round(join[k]) if join[k] is not None else "-" for k in ("p50", "p95", "max")}
    lines = [
        f"bench.pool: {result['players']} players, {result['config']}",
        f"  all paired after:        {seconds('seconds_until_all_paired')} "
        "(goal: under 10 s for 500)",
        f"  the machine's pace:      a fixed Python loop took {result['pace_ms'][0]} ms "
        f"before and {result['pace_ms'][1]} ms after (bench.harness.processes.pace_ms)",
        f"  all matches open after:  {seconds('seconds_until_all_opened')}",
        f"  paired players:          {result['paired_players']} in {result['matches']} matches "
        f"(heard: {result['heard_via']})",
        f"  join round trip (ms):    p50 {ms['p50']}  p95 {ms['p95']}  max {ms['max']}",
        f"  join statuses:           {result['join_statuses']} "
        f"(after {result['join_retries']} retries of a 503 or 429)",
        f"  errors:                  {result['errors'] or 'none'}; "
        f"{result['server_tracebacks']} tracebacks in the server logs",
        f"  server CPU:              {result['server']} {cpu['servers']} s = "
        f"{result['server_cpu_ms_per_pairing']} ms per pairing; PostgreSQL backends "
        f"{cpu['postgres']} s = {result['postgres_cpu_ms_per_pairing']} ms; "
        f"machine {cpu['machine']} s (of which stolen by the host {cpu['stolen']} s)",
        f"  idle sockets before:     {result['server']} {cpu['idle_servers_per_s']} s and "
        f"PostgreSQL {cpu['idle_postgres_per_s']} s of CPU per second",
        f"  clients saw:             {result['players_paired_twice']} players paired twice, "
        f"{result['matches_heard_by_one']} matches heard of by one player only",
        f"  the database says:       entries {db['entries']}, {db['matches']} matches; "
        f"paired twice {db['players_paired_twice']}, seated twice "
        f"{db['players_seated_twice']}, matches not of two {db['matches_not_of_two']}, "
        f"paired without an event {db['paired_unheard']}, "
        f"two paired events {db['paired_events_twice']}",
    ]
    return "\n".join(lines)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    # Run as a package (``-m bench.pool``), argparse would name the file __main__.py.
    parser = argparse.ArgumentParser(
        prog="python -m bench.pool", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--players", type=int, default=500, help="players joining at once")
    parser.add_argument("--config", default="embedded", choices=sorted(CONFIGS))
    parser.add_argument("--json", action="store_true", help="also print a JSON summary")
    parser.add_argument("--postgres", default="postgres://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/9")
    parser.add_argument("--keep-logs", metavar="DIR", help="copy the server logs here")
    parser.add_argument(
        "--server", default="daphne", choices=SERVERS, help="the ASGI server (default daphne)"
    )
    parser.add_argument(
        "--idle-seconds", type=float, default=5.0, help="the idle sockets' CPU, measured first"
    )
    parser.add_argument(
        "--py-spy", metavar="DIR", help="sample the servers during the burst (py-spy, raw stacks)"
    )
    args = parser.parse_args(argv)
    if args.players < 2 or args.players % 2:
        parser.error("--players must be an even number, at least 2")
    return args


def main(argv: list[str] | None = None) -> dict[str, Any]:
    args = parse_args(argv)
    before = pace_ms()
    result = asyncio.run(run(args))
    result["pace_ms"] = [before, pace_ms()]
    print(render(result), flush=True)
    if args.json:
        print(json.dumps(result, indent=2))
    return result
