"""One configuration's live run: the relay floor, then the site's players paired and playing."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import time
from collections import Counter
from contextlib import ExitStack
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from bench.harness.configs import Config, site_database
from bench.harness.meters import Meter, sampled
from bench.harness.pacing import say
from bench.harness.processes import cpu_seconds, process_tree
from bench.harness.servers import PHASES, Server, run_quiet, scan_phases, start_servers
from bench.harness.stats import summarize
from bench.harness.stores import stored_events
from bench.live import timeline
from bench.live.floor import run_relay
from bench.live.proxy import Front, nginx_in_front
from bench.live.site import Site

IDLE_SOCKETS_MIN = 100


def per_player(values: list[int]) -> dict[str, float]:
    return {
        "mean": round(statistics.fmean(values), 1) if values else 0.0,
        "max": max(values, default=0),
        "total": sum(values),
    }


async def run_config(
    config: Config, args: argparse.Namespace, *, via_proxy: bool = False
) -> dict[str, Any]:
    """One configuration: the relay floor, then the site set up, played and taken down."""
    tag = f"[{config.name}{' via nginx' if via_proxy else ''}]"
    result = _heading(config, args, via_proxy)
    with ExitStack() as stack:
        env, log_dir = await site_database(stack, config, args, "bench_live", tag)
        credentials, setup = await _players(tag, env, args.matches)
        relays = await _floor(tag, config, args, env, log_dir, result)
        servers, front = await _site(stack, tag, config, args, env, log_dir, via_proxy)
        site = Site(servers, credentials, args.client, front)
        try:
            before = await _set_up(tag, site, servers, env, setup, result)
            played = await _play(tag, site, servers, front, config, args, env, before, result)
            errors_until_played = Counter(site.errors)
            say(
                f"{tag} opening {before.idle} more idle event sockets: RSS per socket after the run"
            )
            rss = await site.idle_socket_rss(before.idle, site.players)
            result["rss_per_idle_socket_kb"]["after_run"] = round(rss / 1024, 1)
        finally:
            await site.close()
        result["errors"] = dict(errors_until_played)
        result["errors_after_play"] = dict(site.errors - errors_until_played)
        result["http_resent"] = sum(p.http.resent for p in site.players)
        say(f"{tag} stopping the servers")
        for server in servers:
            server.stop()
        result["server_log"] = {s.name: scan_phases(s.log, before.marks[s.name]) for s in servers}
        if args.timeline:
            pids = {s.process.pid: s.name for s in servers}
            result["timeline"] = timeline.report(
                log_dir / "timeline", pids, site.push_spans, played
            )
        result["relay_log"] = {s.name: scan_phases(s.log, [])[PHASES[0]] for s in relays}
        if args.keep_logs:
            for server in [*servers, *relays]:
                target = Path(args.keep_logs) / f"{config.name}-{server.log.name}"
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(server.log.read_bytes())
    return result


def _heading(config: Config, args: argparse.Namespace, via_proxy: bool) -> dict[str, Any]:
    """What the run is: the configuration, the server, the load and the client's settings."""
    n = args.matches
    return {
        "config": config.name + ("+nginx" if via_proxy else ""),
        "title": config.title_under(args.server) + (", behind nginx (TLS)" if via_proxy else ""),
        "server": args.server,
        "matches": n,
        "players": 2 * n,
        "seconds": args.seconds,
        "workers": config.workers,
        "client": asdict(args.client),
        "conn_max_age": os.environ.get("CONN_MAX_AGE", "0") if config.distributed else None,
    }


async def _players(
    tag: str, env: dict[str, str], n: int
) -> tuple[list[tuple[str, str]], dict[str, float]]:
    """Two players per match, each with an API token, and the seconds that took."""
    say(f"{tag} creating {2 * n} players with API tokens")
    begun = time.perf_counter()
    out = await run_quiet([sys.executable, "-m", "bench.harness.players", str(2 * n), "p"], env)
    credentials = [(str(u), str(t)) for u, t in json.loads(out)]
    return credentials, {"players": time.perf_counter() - begun}


async def _floor(
    tag: str,
    config: Config,
    args: argparse.Namespace,
    env: dict[str, str],
    log_dir: Path,
    result: dict[str, Any],
) -> list[Server]:
    """The relay floor on servers of its own, stopped again; they are returned for their logs."""
    say(f"{tag} relay floor on {config.workers} {args.server} worker(s)")
    with ExitStack() as relay_stack:
        relays = start_servers(
            relay_stack,
            "relay",
            "bench.live.relay:application",
            config.workers,
            env,
            log_dir,
            args.server,
        )
        await asyncio.gather(*(s.wait_ready("/") for s in relays))
        relay = await run_relay(relays, args.matches, args.seconds, args.client.pace)
    result["relay_ms"] = asdict(relay.latency)
    result["relay_errors"] = relay.errors
    result["relay_cpu_seconds"] = relay.cpu_seconds
    return relays


async def _site(
    stack: ExitStack,
    tag: str,
    config: Config,
    args: argparse.Namespace,
    env: dict[str, str],
    log_dir: Path,
    via_proxy: bool,
) -> tuple[list[Server], Front | None]:
    """The site's workers, ready, and nginx in front of them when asked."""
    say(f"{tag} starting the site on {config.workers} {args.server} worker(s)")
    site_env = dict(env)
    if args.timeline:
        (log_dir / "timeline").mkdir()
        site_env["GIN_TIMELINE"] = str(log_dir / "timeline")
    servers = start_servers(
        stack,
        "site",
        "ginsite.asgi:application",
        config.workers,
        site_env,
        log_dir,
        args.server,
    )
    await asyncio.gather(*(s.wait_ready("/api/v1/me") for s in servers))
    front = None
    if via_proxy:
        say(f"{tag} starting nginx in front of them (deploy/nginx.conf, TLS)")
        front = stack.enter_context(nginx_in_front([s.port for s in servers]))
    return servers, front


@dataclass
class Before:
    """What the counters said when play began, for play's figures to be taken from."""

    idle: int
    marks: dict[str, list[int]]  # where each server's log stood as setup began
    cpu_start: dict[str, float]
    cpu_setup: dict[str, float]
    stored_setup: dict[str, dict[str, int]]
    presence_events: list[int]
    presence_bytes: list[int]


async def _set_up(
    tag: str,
    site: Site,
    servers: list[Server],
    env: dict[str, str],
    setup: dict[str, float],
    result: dict[str, Any],
) -> Before:
    """Idle sockets measured on fresh servers, then every player connected and paired."""
    idle = max(IDLE_SOCKETS_MIN, len(site.players))  # two per match
    result["idle_sockets"] = idle
    say(f"{tag} opening {idle} idle event sockets: RSS per socket on fresh servers")
    rss = await site.fresh_idle_socket_rss(idle)
    result["rss_per_idle_socket_kb"] = {"fresh": round(rss / 1024, 1)}
    cpu_start = {s.name: s.cpu() for s in servers}
    marks = {s.name: [s.log.stat().st_size] for s in servers}
    begun = time.perf_counter()
    await site.connect_all()
    setup["sockets"] = time.perf_counter() - begun
    begun = time.perf_counter()
    await site.pair_all()
    setup["pairing"] = time.perf_counter() - begun
    setup["settle"] = await site.quiet(1.0, 15.0)
    result["setup_seconds"] = {k: round(v, 1) for k, v in setup.items()}
    result["paired"] = len(site.matches)
    presence_events = [p.frames["presence"] for p in site.players]
    presence_bytes = [p.frame_bytes["presence"] for p in site.players]
    result["presence_setup"] = {
        "events": per_player(presence_events),
        "bytes": per_player(presence_bytes),
    }
    cpu_setup = {s.name: s.cpu() for s in servers}
    stored_setup = stored_events(env["DATABASE_URL"])
    result["stored_setup"] = stored_setup
    return Before(idle, marks, cpu_start, cpu_setup, stored_setup, presence_events, presence_bytes)


async def _play(
    tag: str,
    site: Site,
    servers: list[Server],
    front: Front | None,
    config: Config,
    args: argparse.Namespace,
    env: dict[str, str],
    before: Before,
    result: dict[str, Any],
) -> tuple[float, float]:
    """The matches played for the run's seconds, and what it cost each part of the machine.
    Returns when play began and ended."""
    say(f"{tag} playing {len(site.matches)} matches for {args.seconds:.0f} s")
    meter = Meter(servers, env["DATABASE_URL"], redis=config.distributed)
    meter.begin()
    nginx_cpu = nginx_seconds(front)
    client_cpu = time.process_time()
    begun = time.perf_counter()
    with sampled(servers, args.py_spy and str(Path(args.py_spy) / config.name)):
        await site.play(args.seconds)
    wall = time.perf_counter() - begun
    client_cpu = time.process_time() - client_cpu
    parts = meter.end()
    if front is not None:
        parts["nginx"] = nginx_seconds(front) - nginx_cpu
    cpu_play = {s.name: s.cpu() for s in servers}
    result["stored_play"] = {
        kind: {k: v - before.stored_setup.get(kind, {}).get(k, 0) for k, v in counts.items()}
        for kind, counts in stored_events(env["DATABASE_URL"]).items()
    }
    moves = len(site.post_rtt)
    result.update(
        moves=moves,
        matches_finished=sum(1 for m in site.matches.values() if m.done),
        post_ms=asdict(summarize(site.post_rtt)),
        get_ms=asdict(summarize(site.get_rtt)),
        push_ms=asdict(summarize(site.push)),
        skipped_ticks=dict(site.skipped),
        events=site.integrity(),
        cpu_seconds=_cpu_figures(before, cpu_play, parts, client_cpu, wall, meter, moves),
        presence_play={
            "events": sum(p.frames["presence"] for p in site.players) - sum(before.presence_events),
            "bytes": sum(p.frame_bytes["presence"] for p in site.players)
            - sum(before.presence_bytes),
        },
    )
    for server in servers:
        before.marks[server.name].append(server.log.stat().st_size)
    return begun, begun + wall


def _cpu_figures(
    before: Before,
    cpu_play: dict[str, float],
    parts: dict[str, float],
    client_cpu: float,
    wall: float,
    meter: Meter,
    moves: int,
) -> dict[str, Any]:
    """The processor time of setup and of play, per server and per move of each part."""
    play_cpu = {k: round(cpu_play[k] - before.cpu_setup[k], 2) for k in cpu_play}
    return {
        "setup": {k: round(before.cpu_setup[k] - before.cpu_start[k], 2) for k in before.cpu_setup},
        "play": play_cpu,
        "play_ms_per_move": round(sum(play_cpu.values()) / max(1, moves) * 1000, 2),
        "client_play": round(client_cpu, 2),
        # Per move, in ms: each part of the machine (docs/scaling.md).
        "parts_ms_per_move": {
            k: round(1000 * v / max(1, moves), 2)
            for k, v in {**parts, "client": client_cpu}.items()
        },
        "client_share_of_a_core": round(client_cpu / wall, 2),
        "machine_busy_share": round(meter.machine_busy_share(), 2),
        "machine_cores": os.cpu_count(),
        "load_average_after_play": round(os.getloadavg()[0], 1),
    }


def nginx_seconds(front: Front | None) -> float:
    """CPU seconds of nginx's processes so far (its master and workers)."""
    return sum(cpu_seconds(pid) for pid in process_tree(front.pid)) if front else 0.0


def proxy_cost(direct: dict[str, Any], proxied: dict[str, Any]) -> dict[str, Any]:
    """What nginx added per move, same players and pace without it and with it: the move's
    round trip and its push to the opponent (ms added at p50 and p95, and the ratios), and the
    CPU per move of the run's processes, nginx's own apart."""
    cost: dict[str, Any] = {}
    for measure in ("post_ms", "push_ms"):
        for p in ("p50", "p95"):
            before, after = direct[measure][p], proxied[measure][p]
            cost[f"{measure[:-3]}_{p}_added_ms"] = round(after - before, 2)
            cost[f"{measure[:-3]}_{p}_ratio"] = round(after / before, 2) if before else None
    # The run's own processes (the machine's total counts whatever else runs on it).
    ours = ("servers", "postgres", "redis", "nginx", "client")
    parts = [r["cpu_seconds"]["parts_ms_per_move"] for r in (direct, proxied)]
    cost["cpu_ms_per_move_without_and_with"] = [
        round(sum(p.get(k, 0.0) for k in ours), 2) for p in parts
    ]
    cost["nginx_cpu_ms_per_move"] = parts[1].get("nginx", 0.0)
    return cost
