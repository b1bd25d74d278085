"""bench.scaling's simulation: no queue when alone, queues that grow with load, and machines
that add capacity (the benchmark's own arithmetic; nothing here is a measurement)."""

from __future__ import annotations

import pytest

from bench.scaling import Costs, Layout, largest, parse_measured, simulate

COSTS = Costs(app_ms=10.0, pg_ms=2.0, redis_ms=0.5, fixed_ms=4.0, path_share=0.5, push_share=0.1)
APART = Layout(1, cores=2, db_cores=2)


def test_a_lone_match_waits_nowhere():
    outcome = simulate(1, APART, COSTS, seconds=120.0)
    path = 10.0 * 0.5 + 2.0 + 0.5 + 10.0 * 0.1 + 4.0  # the path's mean service and the fixed part
    assert outcome.moves == pytest.approx(60, abs=6)
    assert outcome.p50_ms == pytest.approx(path, rel=0.2)


def test_the_queue_grows_with_the_load_and_the_busy_share_follows_it():
    light, heavy = simulate(20, APART, COSTS), simulate(300, APART, COSTS)
    assert heavy.p95_ms > 2 * light.p95_ms
    # 150 moves a second of 10 ms over two processes: three quarters busy.
    assert heavy.busy["processes (mean)"] == pytest.approx(0.75, abs=0.05)
    # Sharing its cores with the database makes the same machine slower.
    shared = simulate(300, Layout(1, cores=2, db_cores=2, shared=True), COSTS)
    assert shared.p95_ms > heavy.p95_ms


def test_more_machines_carry_more_matches():
    one = largest(Layout(1), COSTS, goal_ms=40.0, step=25)
    four = largest(Layout(4), COSTS, goal_ms=40.0, step=25)
    assert one > 0
    assert four >= 3.5 * one


def test_measured_points_are_read_as_bench_live_prints_them():
    assert parse_measured("25:12.0:19.5, 50:13.1:24") == {25: (12.0, 19.5), 50: (13.1, 24.0)}
    assert parse_measured("") == {}
