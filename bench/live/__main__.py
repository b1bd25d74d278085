"""Load benchmark of live play: ``python -m bench.live [--matches N] [--seconds S] [--quick]``.

Starts the site itself, on loopback ports it picks, in up to three configurations: ``embedded``
(a SQLite file in a temporary directory, the in-memory channel layer, one daphne), ``pg1``
(PostgreSQL and Redis, one daphne) and ``pg2`` (the same with two daphne workers, the players
spread over them so that every push crosses processes). Each configuration gets a fresh
database (dropped at the end) and, with Redis, a flushed Redis database of its own.

In each one it measures, in the same run and at the same number of pairs and pace:

* the floor: a bare Channels relay (``bench.live.relay``) under daphne with the same channel
  layer, where client A sends a frame and client B in the same group receives it;
* the site: 2N players, made in the database with API tokens, each holding its ``/ws/events/``
  socket for the whole run, paired through the public API (challenge, accept), then one move
  per match every one to three seconds posted to ``/api/v1/matches/{id}/actions`` (or, with
  ``--moves socket``, sent as an ``act`` frame over the player's open event socket). It reports
  the move's round trip, the time from sending the move to the opponent's socket receiving the
  ``match`` event of that version, errors, lost or repeated events, server CPU, the RSS of an
  idle event socket, and the ``presence`` events each player received while the lobby filled
  up.

It prints and never asserts. Progress goes to stderr, results to stdout.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
import sys
import time
from typing import Any

from bench.harness.configs import CONFIGS
from bench.harness.pacing import MOVE_PERIOD, moments, say
from bench.harness.processes import pace_ms
from bench.harness.servers import SERVERS
from bench.live.players import Client
from bench.live.report import render
from bench.live.run import proxy_cost, run_config


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    # Run as a package (``-m bench.live``), argparse would name the file __main__.py.
    parser = argparse.ArgumentParser(
        prog="python -m bench.live", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--matches", type=int, default=50, help="lobby matches (2N players)")
    parser.add_argument("--seconds", type=float, default=30.0, help="seconds of paced play")
    parser.add_argument(
        "--configs",
        default="embedded,pg1,pg2",
        help="comma-separated: embedded, pg1, pg2, pg4, pg8",
    )
    parser.add_argument("--quick", action="store_true", help="smoke run: 4 matches, 8 s, all")
    parser.add_argument("--json", action="store_true", help="also print a JSON summary")
    parser.add_argument(
        "--postgres",
        default="postgres://postgres@127.0.0.1:5432/postgres",
        help="a PostgreSQL URL allowed to create databases (bench_live_<pid>_<config>)",
    )
    parser.add_argument(
        "--redis", default="redis://127.0.0.1:6379/9", help="a Redis database to flush and use"
    )
    parser.add_argument("--keep-logs", metavar="DIR", help="copy the server logs here")
    parser.add_argument(
        "--server", default="daphne", choices=SERVERS, help="the ASGI server (default daphne)"
    )
    parser.add_argument(
        "--py-spy", metavar="DIR", help="sample the servers during play (py-spy, raw stacks)"
    )
    parser.add_argument(
        "--timeline",
        action="store_true",
        help="each server notes its loop's lag, collections, sweeps and waits "
        "(ginsite/lib/timeline.py); the report says which overlapped the slowest pushes",
    )
    parser.add_argument(
        "--via-proxy",
        action="store_true",
        help="run each config twice, without and with nginx in front (deploy/nginx.conf, TLS)",
    )
    defaults = Client()
    parser.add_argument(
        "--pace", choices=("random", "even"), default=defaults.pace, help=moments.__doc__
    )
    parser.add_argument("--connections", choices=("fresh", "keep"), default=defaults.connections)
    parser.add_argument("--reads", choices=("get", "view"), default=defaults.reads)
    parser.add_argument(
        "--moves",
        choices=("http", "socket"),
        default=defaults.moves,
        help="POST each move, or send it over the open event socket (docs/api.md)",
    )
    args = parser.parse_args(argv)
    args.client = Client(args.pace, args.connections, args.reads, args.moves)
    if args.quick:
        args.matches, args.seconds, args.configs = 4, 8.0, "embedded,pg1,pg2"
    args.configs = [c.strip() for c in args.configs.split(",") if c.strip()]
    unknown = [c for c in args.configs if c not in CONFIGS]
    if unknown:
        parser.error(f"unknown config(s): {', '.join(unknown)}")
    if args.matches < 1 or args.seconds <= 0:
        parser.error("--matches and --seconds must be positive")
    return args


async def run_all(args: argparse.Namespace) -> list[dict[str, Any]]:
    results = []
    for name in args.configs:
        direct = None
        for via_proxy in (False, True) if args.via_proxy else (False,):
            begun, pace = time.perf_counter(), pace_ms()
            result = await run_config(CONFIGS[name], args, via_proxy=via_proxy)
            result["wall_seconds"] = round(time.perf_counter() - begun, 1)
            result["pace_ms"] = [pace, pace_ms()]
            say(f"[{result['config']}] done in {result['wall_seconds']:.0f} s")
            if direct is not None:
                result["proxy_cost"] = proxy_cost(direct, result)
            print(render(result), flush=True)
            print(flush=True)
            results.append(result)
            direct = result
    return results


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)

    def stop(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    say(
        f"bench.live: {args.matches} matches, {args.seconds:.0f} s of play, "
        f"configs {', '.join(args.configs)}, a move per match every {MOVE_PERIOD:.0f} s; "
        f"clients: {args.client}"
    )
    begun = time.perf_counter()
    try:
        results = asyncio.run(run_all(args))
    except KeyboardInterrupt:
        say("interrupted: servers stopped, databases dropped")
        sys.exit(130)
    say(f"bench.live: finished in {time.perf_counter() - begun:.0f} s")
    if args.json:
        print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
