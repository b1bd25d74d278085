"""Arena benchmark: ``python -m bench.arena [--players 300] [--minutes 3] [--config pg2]``.

Starts the site as ``bench.live`` does (``pg2``: PostgreSQL and Redis with two daphne workers,
a fresh database dropped at the end; ``embedded``: a SQLite file and one daphne), makes the
players with API tokens and one running arena (casual, standard to 50, bots allowed), and
opens ``--viewers`` arena pages' sockets (``/ws/arena/ID/``, as a browser on the page, in a
process of their own: ``bench.arena.viewers``; ``--beside`` more in the bots' process). Each
player is ``ginclient``'s bot (``ginclient.bot.Bot.arena`` with the random bot, which thinks
``--think`` seconds a move), in a thread of its own, spread over the workers: it opens its
event stream, joins the arena through the API and plays every match the arena pairs it into
until the arena is over. The bots arrive ``--arrive-every`` seconds apart.

It reports, from the database (``bench.arena.check``): the time from a match's end to its
players' next pairing (p50/p95; the goal is 2 s at p95), players seated twice at once, and
whether the standings equal a recount from the stored matches; from the viewers: the standings
pushes per second and their bytes, and the time from each match's end to the next push on
every viewer's screen (the goal: within 2 s); the bots' errors and the servers' tracebacks.
Progress goes to stderr, results to stdout; it never asserts.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import sys
import threading
import time
from bisect import bisect_left
from collections import Counter
from contextlib import ExitStack
from dataclasses import asdict
from pathlib import Path
from typing import Any

from bench.arena.viewers import Viewer
from bench.harness.configs import CONFIGS, site_database
from bench.harness.meters import Meter
from bench.harness.pacing import say
from bench.harness.processes import pace_ms
from bench.harness.servers import ROOT, SERVERS, run_quiet, scan_log, start_servers
from bench.harness.stats import summarize
from ginclient.api import ApiError, Client
from ginclient.bot import Bot
from ginclient.bots.random_bot import choose as random_choose

GRACE_SECONDS = 240.0  # after the end, how long the last matches may take to finish (--grace)
LINGER_SECONDS = 2.0  # the pages stay open this long after the last bot left, for the last push


def play(server: str, token: str, arena_id: str, think: float, errors: list[str]) -> None:
    def choose(view: dict[str, Any]) -> dict[str, Any]:
        time.sleep(think)
        return random_choose(view)

    bot = Bot(Client(server, token), choose, say=lambda _line: None)
    try:
        bot.arena(arena_id)
    except (ApiError, OSError, KeyError, ValueError) as failed:
        errors.append(f"{type(failed).__name__}: {failed}"[:120])


async def run(args: argparse.Namespace) -> dict[str, Any]:
    config = CONFIGS[args.config]
    with ExitStack() as stack:
        env, log_dir = await site_database(stack, config, args, "bench_arena")
        say(f"creating {args.players} players with API tokens")
        out = await run_quiet(
            [sys.executable, "-m", "bench.harness.players", str(args.players), "a"], env
        )
        credentials = [(str(u), str(t)) for u, t in json.loads(out)]
        say(f"starting the site on {config.workers} {args.server} worker(s)")
        servers = start_servers(
            stack, "site", "ginsite.asgi:application", config.workers, env, log_dir, args.server
        )
        await asyncio.gather(*(s.wait_ready("/api/v1/me") for s in servers))
        check = [sys.executable, "-m", "bench.arena.check"]
        arena_id = (await run_quiet([*check, "make", str(args.minutes)], env)).decode().strip()
        stop = asyncio.Event()

        def page(i: int) -> tuple[str, str]:
            port = servers[i % len(servers)].port
            return f"ws://127.0.0.1:{port}/ws/arena/{arena_id}/", f"http://127.0.0.1:{port}"

        # The viewers in a process of their own, as browsers are; --beside more in this one.
        outside = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bench.arena.viewers",
            json.dumps([page(i) for i in range(args.viewers)]),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            cwd=ROOT,
        )
        beside = [Viewer() for _ in range(args.beside)]
        watching = [
            asyncio.create_task(v.watch(*page(i), stop))
            for i, v in enumerate(beside, start=args.viewers)
        ]
        meter = Meter(servers, env["DATABASE_URL"], redis=False)
        meter.begin()
        begun = time.time()
        errors: list[str] = []
        threads = [
            threading.Thread(
                target=play,
                args=(
                    f"http://127.0.0.1:{servers[i % len(servers)].port}",
                    token,
                    arena_id,
                    args.think,
                    errors,
                ),
                daemon=True,
            )
            for i, (_name, token) in enumerate(credentials)
        ]
        say(f"{len(threads)} bots join arena {arena_id} for {args.minutes} minutes")
        # Players arrive over a few seconds, as they do at an arena's start (all 300 event
        # streams opened in the same instant wait for the database pool: bench.pool opens its
        # sockets a few at a time for the same reason).
        for thread in threads:
            thread.start()
            await asyncio.sleep(args.arrive_every)
        deadline = begun + args.minutes * 60 + args.grace
        while any(t.is_alive() for t in threads) and time.time() < deadline:
            await asyncio.sleep(5)
            alive = sum(t.is_alive() for t in threads)
            say(f"  {time.time() - begun:5.0f} s: {alive} bots playing; errors {len(errors)}")
        ended = time.time()
        cpu = meter.end()
        errors = list(errors)  # before the servers stop under the bots still playing
        await asyncio.sleep(LINGER_SECONDS)  # the last match's end still reaches the pages
        stop.set()
        await asyncio.gather(*watching)
        assert outside.stdin is not None
        outside.stdin.close()
        seen, _ = await outside.communicate()
        viewers = json.loads(seen)
        checked = json.loads(await run_quiet([*check, "check", arena_id], env))
        scans = [scan_log(server.log.read_text(errors="replace")) for server in servers]
        tracebacks = (
            sum(scan["tracebacks"] for scan in scans),
            sum((Counter(scan["exceptions"]) for scan in scans), Counter()),
        )
        if args.keep_logs:
            Path(args.keep_logs).mkdir(parents=True, exist_ok=True)
            for server in servers:
                shutil.copy(server.log, Path(args.keep_logs) / server.log.name)
    return result_of(
        args,
        config.title_under(args.server),
        (viewers["frames"], viewers["errors"]),
        ([v.frames for v in beside], [e for v in beside for e in v.errors]),
        errors,
        checked,
        (begun, ended),
        cpu,
        tracebacks,
    )


def result_of(
    args: argparse.Namespace,
    title: str,
    viewers: tuple[list[list[tuple[float, int]]], list[str]],
    beside: tuple[list[list[tuple[float, int]]], list[str]],
    errors: list[str],
    checked: dict[str, Any],
    window: tuple[float, float],
    cpu: dict[str, float],
    tracebacks: tuple[int, Counter[str]],
) -> dict[str, Any]:
    """``tracebacks``: how many the servers logged, and the exceptions that ended them."""
    begun, ended = window
    seconds = max(1.0, ended - begun)
    frames = [f for pages in viewers[0] for f in pages]
    ended_at = checked["ended_at"]
    return {
        "config": title,
        "players": args.players,
        "viewers": args.viewers,
        "minutes": args.minutes,
        "seconds": round(seconds, 1),
        "matches": checked["matches"],
        "outcomes": checked["outcomes"],
        "arena_finished": checked["finished"],
        "end_to_next_pairing_ms": asdict(summarize(checked["end_to_next_pairing_seconds"])),
        "end_to_viewer_ms": asdict(summarize(_delays(viewers[0], ended_at))),
        "end_to_viewer_beside_bots_ms": asdict(summarize(_delays(beside[0], ended_at))),
        "pushes_per_second_per_viewer": round(len(frames) / seconds / max(1, args.viewers), 2),
        "push_bytes": asdict(summarize(size / 1000 for _t, size in frames)),
        "errors": dict(Counter(errors)),
        "viewer_errors": dict(Counter(viewers[1] + beside[1])),
        "server_tracebacks": tracebacks[0],
        "server_traceback_kinds": dict(tracebacks[1].most_common(5)),
        "seated_twice_at_once": checked["seated_twice_at_once"],
        "standings_differ_from_recount": checked["standings_differ_from_recount"],
        "cpu_seconds": cpu,
    }


def _delays(pages: list[list[tuple[float, int]]], ended_at: list[float]) -> list[float]:
    """For each match's end, each viewer: the first push after it (what put it on the screen)."""
    delays = []
    for frames in pages:
        moments = [t for t, _size in frames]
        for end in ended_at:
            i = bisect_left(moments, end)
            if i < len(moments):
                delays.append(moments[i] - end)
    return delays


def render(result: dict[str, Any]) -> str:
    pairing, viewer, size = (
        result["end_to_next_pairing_ms"],
        result["end_to_viewer_ms"],
        result["push_bytes"],
    )

    def ms(s: dict[str, Any]) -> str:
        return (
            " ".join(
                f"{k} {round(s[k]) if s[k] is not None else '-'}" for k in ("p50", "p95", "max")
            )
            + f" (n {s['n']})"
        )

    cpu = result["cpu_seconds"]
    beside = result["end_to_viewer_beside_bots_ms"]
    return "\n".join(
        [
            f"bench.arena: {result['players']} bots, {result['viewers']} viewers, "
            f"{result['minutes']} min arena, {result['config']}",
            f"  matches:                 {result['matches']} {result['outcomes']}; arena over: "
            f"{result['arena_finished']} after {result['seconds']} s",
            f"  end -> next pairing ms:  {ms(pairing)} (goal: p95 under 2000)",
            f"  end -> viewer's push ms: {ms(viewer)} (goal: under 2000)",
            *([f"    in the bots' process:  {ms(beside)}"] if beside["n"] else []),
            f"  pushes:                  {result['pushes_per_second_per_viewer']} per second per "
            f"viewer; bytes {ms(size)}",
            f"  errors:                  bots {result['errors'] or 'none'}; viewers "
            f"{result['viewer_errors'] or 'none'}; {result['server_tracebacks']} tracebacks "
            f"{result['server_traceback_kinds'] or ''}",
            f"  the database says:       seated twice at once {result['seated_twice_at_once']}, "
            f"standings differing from a recount {result['standings_differ_from_recount']}",
            f"  CPU seconds:             servers {cpu['servers']}, PostgreSQL {cpu['postgres']}, "
            f"machine {cpu['machine']} (stolen {cpu['stolen']})",
        ]
    )


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    # Run as a package (``-m bench.arena``), argparse would name the file __main__.py.
    parser = argparse.ArgumentParser(
        prog="python -m bench.arena", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--players", type=int, default=300, help="bots in the arena")
    parser.add_argument(
        "--viewers", type=int, default=20, help="open arena pages, in a process of their own"
    )
    parser.add_argument(
        "--beside",
        type=int,
        default=0,
        help="more open arena pages in the bots' own process, reported apart (a comparison)",
    )
    parser.add_argument("--minutes", type=float, default=3, help="the arena's length")
    parser.add_argument("--think", type=float, default=0.5, help="seconds a bot thinks a move")
    parser.add_argument(
        "--arrive-every", type=float, default=0.05, help="seconds between two bots' arrivals"
    )
    parser.add_argument(
        "--grace",
        type=float,
        default=GRACE_SECONDS,
        help="seconds after the end the last matches may take before the run stops",
    )
    parser.add_argument("--config", default="pg2", choices=sorted(CONFIGS))
    parser.add_argument("--json", action="store_true", help="also print a JSON summary")
    parser.add_argument("--postgres", default="postgres://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/9")
    parser.add_argument("--keep-logs", metavar="DIR", help="copy the server logs here")
    parser.add_argument("--server", default="daphne", choices=SERVERS)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    args = parse_args(argv)
    before = pace_ms()
    result = asyncio.run(run(args))
    result["pace_ms"] = [before, pace_ms()]
    print(render(result), flush=True)
    if args.json:
        print(json.dumps(result, indent=2))
    return result
