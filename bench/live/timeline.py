"""What the servers did while the slowest pushes of ``bench.live --timeline`` were on their way.

Each server process writes its timeline (``ginsite/lib/timeline.py``: the event loop's lag,
the collector's pauses, the sweep's jobs, socket work waiting for a thread, requests waiting
for a lane). This reads them beside the bench's own record of each move (sent, heard by the
opponent) and says, per worker, how much of each there was while the matches were played, and
for the slowest twentieth of the pushes how often each kind of event overlapped one, against
how often it overlapped any push: a cause of the tail overlaps the slow ones far more often.
"""

from __future__ import annotations

import json
from bisect import bisect_left
from collections import defaultdict
from dataclasses import asdict
from pathlib import Path
from typing import Any

from bench.harness.stats import summarize

# An event counts against a push if it overlaps it and lasted at least this long (ms).
AT_LEAST_MS = 10.0


def load(directory: Path, pids: dict[int, str], window: tuple[float, float]) -> list[dict]:
    """Every event of the processes ``pids`` (pid: the worker's name) within ``window``."""
    events = []
    for path in sorted(directory.glob("*.jsonl")):
        worker = pids.get(int(path.stem), f"pid {path.stem}")
        for line in path.read_text().splitlines():
            event = json.loads(line)
            if window[0] <= event["t"] <= window[1]:
                event["worker"] = worker
                events.append(event)
    return events


def _length_ms(event: dict) -> float:
    """How long the event held things up: a wait for a pool thread or a lane is the wait."""
    return float(event["wait"] if event["k"] in ("pool", "lane") else event["ms"])


def _name(event: dict) -> str:
    if event["k"] == "job":
        return f"job {event['name']}"
    if event["k"] == "pool":
        return "pool wait"
    if event["k"] == "lane":
        return "lane wait"
    return event["k"]


def per_worker(events: list[dict]) -> dict[str, dict[str, Any]]:
    """For each worker and kind: how many, their total and longest ms (waits for pool and
    lane); the collector's pauses also by generation."""
    table: dict[str, dict[str, Any]] = defaultdict(dict)
    for event in events:
        names = [_name(event)]
        if event["k"] == "gc":  # and by generation: the full passes are the long ones
            names.append(f"gc gen{event.get('gen')}")
        length = _length_ms(event)
        for name in names:
            row = table[event["worker"]].setdefault(name, {"n": 0, "total_ms": 0.0, "max_ms": 0.0})
            row["n"] += 1
            row["total_ms"] = round(row["total_ms"] + length, 1)
            row["max_ms"] = max(row["max_ms"], round(length, 1))
    return dict(table)


def move_requests(events: list[dict]) -> dict[str, Any]:
    """The moves' own requests (``POST .../actions``): how long each held its lane, as
    ``bench.harness.stats`` summarizes a latency (ms), per worker."""
    held: dict[str, list[float]] = defaultdict(list)
    for event in events:
        if event["k"] == "lane" and str(event.get("path", "")).endswith("/actions"):
            held[event["worker"]].append(event["ms"] / 1000)
    return {worker: asdict(summarize(values)) for worker, values in sorted(held.items())}


def overlaps(events: list[dict], pushes: list[tuple[float, float]]) -> dict[str, Any]:
    """For the slowest twentieth of ``pushes`` ((sent, heard) each) and for all of them: the
    share that overlapped an event of each kind of at least ``AT_LEAST_MS``."""
    if not pushes:
        return {}
    long_ones = [e for e in events if _length_ms(e) >= AT_LEAST_MS]
    spans = sorted((e["t"], e["t"] + _length_ms(e) / 1000, _name(e)) for e in long_ones)
    starts = [s for s, _end, _name in spans]
    longest = max((end - s for s, end, _n in spans), default=0.0)

    def kinds(sent: float, heard: float) -> set[str]:
        found = set()
        for i in range(bisect_left(starts, sent - longest), bisect_left(starts, heard)):
            began, ended, name = spans[i]
            if ended >= sent:
                found.add(name)
        return found

    by_length = sorted(pushes, key=lambda p: p[1] - p[0])
    cut = int(len(by_length) * 0.95)
    slow = by_length[cut:]
    names = sorted({name for _s, _e, name in spans})
    every = [kinds(*p) for p in by_length]
    counted = {"all": every, "slow": every[cut:]}
    return {
        "slow_from_ms": round((slow[0][1] - slow[0][0]) * 1000, 1) if slow else None,
        "pushes": len(pushes),
        "slow": len(slow),
        "share": {
            name: {
                group: round(sum(name in k for k in found) / max(1, len(found)), 2)
                for group, found in counted.items()
            }
            for name in names
        },
        "slow_with_none": round(sum(not k for k in counted["slow"]) / max(1, len(slow)), 2),
    }


def report(
    directory: Path,
    pids: dict[int, str],
    pushes: list[tuple[float, float]],
    window: tuple[float, float],
) -> dict[str, Any]:
    events = load(directory, pids, window)
    return {
        "per_worker": per_worker(events),
        "move_requests": move_requests(events),
        "overlaps": overlaps(events, pushes),
    }


def render(found: dict[str, Any]) -> list[str]:
    lines = ["  timeline (ginsite/lib/timeline.py), while the matches were played:"]
    for worker, kinds in sorted(found["per_worker"].items()):
        parts = [
            f"{name} {row['n']} x, {row['total_ms']:.0f} ms, longest {row['max_ms']:.0f}"
            for name, row in sorted(kinds.items())
        ]
        lines.append(f"    {worker}: " + "; ".join(parts))
    for worker, held in found["move_requests"].items():
        lines.append(
            f"    {worker}: a move's request held its lane p50 {held['p50']:.1f}, "
            f"p95 {held['p95']:.1f}, max {held['max']:.1f} ms (n {held['n']})"
        )
    over = found["overlaps"]
    if over:
        lines.append(
            f"    the slowest {over['slow']} of {over['pushes']} pushes (from "
            f"{over['slow_from_ms']} ms) overlapped, against all pushes:"
        )
        for name, share in sorted(over["share"].items(), key=lambda kv: -kv[1]["slow"]):
            lines.append(
                f"      {name:<18} {share['slow']:>5.0%} of the slow, {share['all']:>5.0%} of all"
            )
        lines.append(f"      {'nothing of these':<18} {over['slow_with_none']:>5.0%} of the slow")
    return lines
