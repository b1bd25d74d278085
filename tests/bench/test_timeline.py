"""``bench.live --timeline``: a server process notes when its event loop was held up, and the
report lays such moments beside the slowest pushes."""

from __future__ import annotations

import asyncio
import gc
import json
import time
from pathlib import Path

import pytest

from bench.live import timeline as report
from ginsite.lib import timeline


def test_a_process_notes_a_loop_held_up_and_a_sweep_job(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(timeline, "ON", True)
    monkeypatch.setattr(timeline, "DIRECTORY", str(tmp_path))
    monkeypatch.setattr(timeline, "_started", False)

    async def held_up() -> None:
        timeline.start()
        await asyncio.sleep(0.05)
        time.sleep(0.08)  # something holds the loop
        await asyncio.sleep(0.05)

    try:
        asyncio.run(held_up())
    finally:
        gc.callbacks.remove(timeline._collected)
    timeline.timed("job", "arenas", lambda: time.sleep(0.02))()
    timeline._write()
    (written,) = tmp_path.glob("*.jsonl")
    events = [json.loads(line) for line in written.read_text().splitlines()]
    lags = [e["ms"] for e in events if e["k"] == "lag"]
    assert lags and max(lags) >= 60
    (job,) = [e for e in events if e["k"] == "job"]
    assert job["name"] == "arenas" and job["ms"] >= 20


def test_the_report_names_what_the_slow_pushes_overlapped() -> None:
    # 40 pushes of 10 ms every second; two of them took 300 ms, while worker 2's loop lagged.
    pushes = [(float(i), i + 0.01) for i in range(40)]
    pushes[7] = (7.0, 7.3)
    pushes[23] = (23.0, 23.3)
    events = [
        {"k": "lag", "t": 7.1, "ms": 150.0, "worker": "site-2"},
        {"k": "lag", "t": 23.05, "ms": 200.0, "worker": "site-2"},
        {"k": "gc", "t": 30.5, "ms": 40.0, "gen": 2, "worker": "site-1"},
        {"k": "job", "t": 11.0, "ms": 50.0, "name": "arenas", "worker": "site-1"},
        {"k": "pool", "t": 23.2, "ms": 3.0, "wait": 2.0, "name": "read", "worker": "site-1"},
    ]
    found = report.overlaps(events, pushes)
    assert found["slow"] == 2 and found["slow_from_ms"] == 300.0
    assert found["share"]["lag"] == {"slow": 1.0, "all": 0.05}
    assert found["share"]["gc"] == {"slow": 0.0, "all": 0.0}  # between two pushes
    assert found["share"]["job arenas"] == {"slow": 0.0, "all": 0.03}
    assert "pool wait" not in found["share"]  # 2 ms: under what counts
    assert report.per_worker(events)["site-2"]["lag"] == {
        "n": 2,
        "total_ms": 350.0,
        "max_ms": 200.0,
    }
    collections = report.per_worker(events)["site-1"]
    assert collections["gc"] == collections["gc gen2"] == {"n": 1, "total_ms": 40.0, "max_ms": 40.0}
