"""A live run's result, as the report prints it."""

from __future__ import annotations

from typing import Any

from bench.harness.servers import PHASES
from bench.live import timeline
from bench.live.players import Client
from bench.live.sockets import SILENT_AFTER


def latency_row(label: str, summary: dict[str, Any]) -> str:
    cells = [summary.get(k) for k in ("p50", "p95", "p99", "max")]
    shown = "".join(f"{c:9.1f}" if c is not None else f"{'-':>9}" for c in cells)
    return f"  {label:28} {summary.get('n', 0):7d}{shown}"


def stored(kinds: dict[str, dict[str, int]]) -> str:
    shown = [
        f"{kind} {c['events']} ({c['bytes'] / 1024:.0f} KB)"
        for kind, c in sorted(kinds.items())
        if c["events"]
    ]
    return ", ".join(shown) or "none"


def render(r: dict[str, Any]) -> str:
    if "moves" not in r:
        return f"== {r['config']}: did not finish"
    cpu = r["cpu_seconds"]
    presence = r["presence_setup"]
    rss = r["rss_per_idle_socket_kb"]
    events = r["events"]
    errors = r["errors"] or {}
    setup = ", ".join(f"{k} {v} s" for k, v in r["setup_seconds"].items())
    lines = [
        f"== {r['config']}: {r['title']} - {r['paired']}/{r['matches']} matches, "
        f"{r['players']} players, {r['seconds']:.0f} s of play ==",
        f"  clients: {Client(**r['client'])}",
        f"  setup: {setup}",
        f"  {'latency (ms)':28} {'n':>7}{'p50':>9}{'p95':>9}{'p99':>9}{'max':>9}",
        latency_row("relay frame A -> B (floor)", r["relay_ms"]),
        latency_row("GET /matches/{id} round trip", r["get_ms"]),
        latency_row(
            "act frame -> answer"
            if r["client"]["moves"] == "socket"
            else "POST /actions round trip",
            r["post_ms"],
        ),
        latency_row("move -> opponent's push", r["push_ms"]),
        f"  moves: {r['moves']}, matches finished: {r['matches_finished']}; "
        f"ticks skipped: {r['skipped_ticks'] or 0}",
        f"  errors: {sum(errors.values())} {errors or ''}; relay errors: {r['relay_errors'] or 0}; "
        f"HTTP requests re-sent on a closed keep-alive: {r['http_resent']}",
        f"  events: seq gaps {events['seq_gaps']}, seq repeats {events['seq_repeats']}; "
        f"match versions missing {events['versions_missing']}, "
        f"repeated {events['versions_repeated']}, backwards {events['versions_backwards']}; "
        f"longest silence on an event socket "
        f"{events['longest_silence_s']} s, sockets silent over {SILENT_AFTER:.0f} s: "
        f"{events['silent_sockets']}",
        f"  presence during setup, per player: {presence['events']['mean']:.0f} events "
        f"(max {presence['events']['max']}), {presence['bytes']['mean'] / 1024:.0f} KB "
        f"(max {presence['bytes']['max'] / 1024:.0f} KB); all players: "
        f"{presence['events']['total']} events, {presence['bytes']['total'] / 2**20:.1f} MB",
        f"  presence during play: {r['presence_play']['events']} events, "
        f"{r['presence_play']['bytes'] / 1024:.0f} KB",
        f"  events the server stored: setup {stored(r['stored_setup'])}; "
        f"play {stored(r['stored_play'])}",
        f"  server CPU s: setup {cpu['setup']}, play {cpu['play']} "
        f"= {cpu['play_ms_per_move']} ms per move; relay {r['relay_cpu_seconds']}",
        "  CPU per move by part (ms): "
        + ", ".join(f"{k} {v}" for k, v in cpu["parts_ms_per_move"].items()),
        f"  client CPU during play: {cpu['client_play']} s "
        f"({cpu['client_share_of_a_core']:.0%} of a core); the machine's {cpu['machine_cores']} "
        f"cores were {cpu['machine_busy_share']:.0%} busy (everything on it), load average "
        f"{cpu['load_average_after_play']}",
        f"  the machine's pace: a fixed Python loop took {r['pace_ms'][0]} ms before the run "
        f"and {r['pace_ms'][1]} ms after (bench.harness.processes.pace_ms; the same code's "
        "figures compare only at a like pace)",
        f"  RSS per idle event socket ({r['idle_sockets']} sockets): "
        f"{rss['fresh']} KB on fresh servers, {rss['after_run']} KB after the run",
        f"  errors after play (idle sockets, closing): {r['errors_after_play'] or 0}",
    ]
    for phase in PHASES:
        counts = {k: v[phase]["tracebacks"] for k, v in r["server_log"].items()}
        full = {k: v[phase]["over_capacity"] for k, v in r["server_log"].items()}
        lines.append(f"  server log tracebacks, {phase}: {counts}; channels over capacity: {full}")
        for server, scans in r["server_log"].items():
            for line, count in scans[phase]["exceptions"].items():
                lines.append(f"    {server}: {count} x {line}")
    relay = {k: v["tracebacks"] for k, v in r["relay_log"].items()}
    lines.append(f"  relay log tracebacks: {relay}")
    if "proxy_cost" in r:
        cost = r["proxy_cost"]
        lines.append(
            "  nginx's cost against the run without it: "
            + ", ".join(f"{k} {v}" for k, v in cost.items())
        )
    if "timeline" in r:
        lines += timeline.render(r["timeline"])
    return "\n".join(lines)
