"""Quick-pairing benchmark: ``python -m bench.pool [--players 500] [--config embedded]``.

Starts the site as ``bench.live`` does (``embedded``: a SQLite file and one daphne; ``pg1`` /
``pg2``: PostgreSQL and Redis with one or two daphne workers, a fresh database dropped at the
end), makes the players with API tokens, opens each one's ``/ws/events/`` socket, then has all
of them ``POST /api/v1/pool`` at once (standard to 100, casual). It reports the time from the
first join until the last player was paired (the join's answer said "paired", or the
``paired`` event came on the socket; the goal is under 10 s for 500), the joins' round trips,
the server CPU per pairing, and whether anyone was paired twice. Progress goes to stderr,
results to stdout; it never asserts.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import shutil
import sys
import time
from collections import Counter
from contextlib import ExitStack
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed

from bench.live import (
    CONFIGS,
    CONNECT_CONCURRENCY,
    HTTP_TIMEOUT,
    Http,
    Progress,
    limited,
    open_socket,
    run_quiet,
    say,
    site_database,
    start_servers,
    summarize,
)

GIVE_UP_SECONDS = 120.0
JOIN_TRIES = 5


@dataclass(eq=False)
class Pooled:
    """One player: its connection, its event socket, and when (and into what) it was paired."""

    username: str
    token: str
    port: int
    http: Http
    ws: ClientConnection | None = None
    listener: asyncio.Task[None] | None = None
    join_status: int | None = None
    join_seconds: float | None = None
    join_retries: int = 0
    matches: list[str] = field(default_factory=list)
    paired: asyncio.Event = field(default_factory=asyncio.Event)
    paired_at: float | None = None

    def paired_into(self, match: str) -> None:
        if match not in self.matches:
            self.matches.append(match)
        if self.paired_at is None:
            self.paired_at = time.perf_counter()
        self.paired.set()


async def connect(player: Pooled) -> None:
    url = f"ws://127.0.0.1:{player.port}/ws/events/?token={player.token}"
    player.ws = await open_socket(url)
    async with asyncio.timeout(HTTP_TIMEOUT):
        await player.ws.recv()  # the hello: events from here on reach this socket
    player.listener = asyncio.create_task(listen(player, player.ws))


async def listen(player: Pooled, ws: ClientConnection) -> None:
    with contextlib.suppress(ConnectionClosed):
        async for frame in ws:
            message = json.loads(frame)
            if message.get("type") == "paired":
                player.paired_into(str(message["data"]["match"]))


async def join(player: Pooled) -> None:
    """Join, as a client should: again after a 503 or 429 (the server too busy for now)."""
    begun = time.perf_counter()
    for _try in range(JOIN_TRIES):
        body = {"preset": "standard"}
        reply = await player.http.call("POST", "/api/v1/pool", body, idempotent=True)
        if reply.status not in (429, 503):
            break
        player.join_retries += 1
        await asyncio.sleep(1.0)
    player.join_seconds = time.perf_counter() - begun
    player.join_status = reply.status
    body = reply.json() or {}
    if reply.status == 201 and body.get("status") == "paired":
        player.paired_into(str(body["match"]))


async def wait_paired(players: list[Pooled], begun: float) -> list[Pooled]:
    """Until every player is paired (or GIVE_UP_SECONDS); those still waiting."""
    progress = Progress("paired", len(players))

    async def one(player: Pooled) -> None:
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(max(0.0, begun + GIVE_UP_SECONDS - time.perf_counter())):
                await player.paired.wait()
                progress.tick()

    await asyncio.gather(*(one(p) for p in players))
    return [p for p in players if p.paired_at is None]


def exactly_once(players: list[Pooled]) -> dict[str, int]:
    """Players in more than one match, and matches without exactly two of our players."""
    seated = Counter(m for p in players for m in p.matches)
    return {
        "players_paired_twice": sum(1 for p in players if len(p.matches) > 1),
        "matches_not_of_two": sum(1 for n in seated.values() if n != 2),
    }


async def setup(stack: ExitStack, args: argparse.Namespace) -> dict[str, str]:
    """The environment of a fresh, migrated site database."""
    env, log_dir = await site_database(stack, CONFIGS[args.config], args, "bench_pool")
    env["BENCH_LOG_DIR"] = str(log_dir)
    return env


async def run(args: argparse.Namespace) -> dict[str, Any]:
    n = args.players
    config = CONFIGS[args.config]
    with ExitStack() as stack:
        env = await setup(stack, args)
        say(f"creating {n} players with API tokens")
        out = await run_quiet([sys.executable, "-m", "bench.live_players", str(n), "q"], env)
        credentials = [(str(u), str(t)) for u, t in json.loads(out)]
        say(f"starting the site on {config.workers} daphne worker(s)")
        log_dir = Path(env["BENCH_LOG_DIR"])
        servers = start_servers(
            stack, "daphne", "ginsite.asgi:application", config.workers, env, log_dir
        )
        await asyncio.gather(*(s.wait_ready("/api/v1/me") for s in servers))
        players = []
        for i, (username, token) in enumerate(credentials):
            port = servers[i % len(servers)].port
            players.append(Pooled(username, token, port, Http(port, token)))
        try:
            progress = Progress("event sockets", n)
            await limited([lambda p=p: connect(p) for p in players], CONNECT_CONCURRENCY, progress)
            cpu_before = sum(s.cpu() for s in servers)
            say(f"{n} players join the pool at once")
            begun = time.perf_counter()
            await asyncio.gather(*(join(p) for p in players))
            say("  all joins answered")
            left = await wait_paired(players, begun)
            last = max((p.paired_at for p in players if p.paired_at), default=begun)
            cpu = sum(s.cpu() for s in servers) - cpu_before
        finally:
            for p in players:
                p.http.close()
            await limited([lambda p=p: p.ws.close() for p in players if p.ws], 8)
            if args.keep_logs:
                for server in servers:
                    shutil.copy(server.log, Path(args.keep_logs) / server.log.name)
    pairs = len({m for p in players for m in p.matches})
    return {
        "config": config.title,
        "players": n,
        "paired_players": n - len(left),
        "matches": pairs,
        "seconds_until_all_paired": round(last - begun, 2) if not left else None,
        "join_ms": asdict(summarize(p.join_seconds for p in players if p.join_seconds)),
        "join_statuses": dict(Counter(str(p.join_status) for p in players)),
        "join_retries": sum(p.join_retries for p in players),
        "server_cpu_seconds": round(cpu, 2),
        "server_cpu_ms_per_pairing": round(1000 * cpu / pairs, 1) if pairs else None,
        **exactly_once(players),
    }


def render(result: dict[str, Any]) -> str:
    seconds = result["seconds_until_all_paired"]
    until = f"{seconds:.2f} s" if seconds is not None else "not all paired"
    join = result["join_ms"]
    lines = [
        f"bench.pool: {result['players']} players, {result['config']}",
        f"  all paired after:        {until} (goal: under 10 s for 500)",
        f"  paired players:          {result['paired_players']} in {result['matches']} matches",
        f"  join round trip (ms):    p50 {join['p50']}  p95 {join['p95']}  max {join['max']}",
        f"  join statuses:           {result['join_statuses']} "
        f"(after {result['join_retries']} retries of a 503 or 429)",
        f"  server CPU:              {result['server_cpu_seconds']} s, "
        f"{result['server_cpu_ms_per_pairing']} ms per pairing",
        f"  paired twice / bad:      {result['players_paired_twice']} players, "
        f"{result['matches_not_of_two']} matches",
    ]
    return "\n".join(lines)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=500, help="players joining at once")
    parser.add_argument("--config", default="embedded", choices=sorted(CONFIGS))
    parser.add_argument("--json", action="store_true", help="also print a JSON summary")
    parser.add_argument("--postgres", default="postgres://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/9")
    parser.add_argument("--keep-logs", metavar="DIR", help="copy the server logs here")
    args = parser.parse_args(argv)
    if args.players < 2 or args.players % 2:
        parser.error("--players must be an even number, at least 2")
    return args


def main(argv: list[str] | None = None) -> dict[str, Any]:
    args = parse_args(argv)
    result = asyncio.run(run(args))
    print(render(result), flush=True)
    if args.json:
        print(json.dumps(result, indent=2))
    return result


if __name__ == "__main__":
    main()
