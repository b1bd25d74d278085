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
from dataclasses import asdict
from pathlib import Path
from typing import Any

from bench.harness.configs import Config, site_database
from bench.harness.meters import Meter, sampled
from bench.harness.pacing import say
from bench.harness.processes import cpu_seconds, process_tree
from bench.harness.servers import PHASES, run_quiet, scan_phases, start_servers
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
    tag = f"[{config.name}{' via nginx' if via_proxy else ''}]"
    n = args.matches
    result: dict[str, Any] = {
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
    with ExitStack() as stack:
        env, log_dir = await site_database(stack, config, args, "bench_live", tag)

        say(f"{tag} creating {2 * n} players with API tokens")
        begun = time.perf_counter()
        out = await run_quiet([sys.executable, "-m", "bench.harness.players", str(2 * n), "p"], env)
        credentials = [(str(u), str(t)) for u, t in json.loads(out)]
        setup = {"players": time.perf_counter() - begun}

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
            relay = await run_relay(relays, n, args.seconds, args.client.pace)
        result["relay_ms"] = asdict(relay.latency)
        result["relay_errors"] = relay.errors
        result["relay_cpu_seconds"] = relay.cpu_seconds

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
        site = Site(servers, credentials, args.client, front)
        try:
            idle = max(IDLE_SOCKETS_MIN, 2 * n)
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

            say(f"{tag} playing {len(site.matches)} matches for {args.seconds:.0f} s")
            meter = Meter(servers, env["DATABASE_URL"], redis=config.distributed)
            meter.begin()
            nginx_cpu = nginx_seconds(front)
            client_cpu = time.process_time()
            begun = time.perf_counter()
            with sampled(servers, args.py_spy and str(Path(args.py_spy) / config.name)):
                await site.play(args.seconds)
            wall = time.perf_counter() - begun
            played = (begun, begun + wall)
            client_cpu = time.process_time() - client_cpu
            parts = meter.end()
            if front is not None:
                parts["nginx"] = nginx_seconds(front) - nginx_cpu
            cpu_play = {s.name: s.cpu() for s in servers}
            result["stored_play"] = {
                kind: {k: v - stored_setup.get(kind, {}).get(k, 0) for k, v in counts.items()}
                for kind, counts in stored_events(env["DATABASE_URL"]).items()
            }
            moves = len(site.post_rtt)
            play_cpu = {k: round(cpu_play[k] - cpu_setup[k], 2) for k in cpu_play}
            result.update(
                moves=moves,
                matches_finished=sum(1 for m in site.matches.values() if m.done),
                post_ms=asdict(summarize(site.post_rtt)),
                get_ms=asdict(summarize(site.get_rtt)),
                push_ms=asdict(summarize(site.push)),
                skipped_ticks=dict(site.skipped),
                events=site.integrity(),
                cpu_seconds={
                    "setup": {k: round(cpu_setup[k] - cpu_start[k], 2) for k in cpu_setup},
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
                },
                presence_play={
                    "events": sum(p.frames["presence"] for p in site.players)
                    - sum(presence_events),
                    "bytes": sum(p.frame_bytes["presence"] for p in site.players)
                    - sum(presence_bytes),
                },
            )
            for server in servers:
                marks[server.name].append(server.log.stat().st_size)
            errors_until_played = Counter(site.errors)
            say(f"{tag} opening {idle} more idle event sockets: RSS per socket after the run")
            rss = await site.idle_socket_rss(idle, site.players)
            result["rss_per_idle_socket_kb"]["after_run"] = round(rss / 1024, 1)
        finally:
            await site.close()
        result["errors"] = dict(errors_until_played)
        result["errors_after_play"] = dict(site.errors - errors_until_played)
        result["http_resent"] = sum(p.http.resent for p in site.players)
        say(f"{tag} stopping the servers")
        for server in servers:
            server.stop()
        result["server_log"] = {s.name: scan_phases(s.log, marks[s.name]) for s in servers}
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
