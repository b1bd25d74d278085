"""bench.live's own arithmetic and move choice (the benchmark itself is never run here)."""

from __future__ import annotations

import pytest

from bench.live import choose, percentile, summarize


def test_percentile_is_nearest_rank():
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 50) == 50
    assert percentile(values, 95) == 95
    assert percentile(values, 99) == 99
    assert percentile(values, 100) == 100
    assert percentile([1.0, 2.0, 3.0, 4.0], 50) == 2
    assert percentile([1.0, 2.0, 3.0, 4.0], 51) == 3
    assert percentile([7.0], 99) == 7


def test_percentile_of_nothing_is_refused():
    with pytest.raises(ValueError):
        percentile([], 50)


def test_summarize_sorts_and_reports_milliseconds():
    summary = summarize([0.003, 0.001, 0.002] * 10 + [0.5])
    assert summary.n == 31
    assert summary.p50 == pytest.approx(2.0)
    assert summary.p95 == pytest.approx(3.0)
    assert summary.p99 == pytest.approx(500.0)
    assert summary.max == pytest.approx(500.0)
    assert summarize([]).n == 0
    assert summarize([]).p50 is None


def test_choose_prefers_going_out_then_the_least_deadwood():
    view = {
        "legal_actions": [
            {"type": "discard", "card": "KS"},
            {"type": "discard", "card": "2C"},
            {"type": "knock", "card": "KS"},
        ],
        "deadwood_after_discard": {"KS": 5, "2C": 14},
    }
    assert choose(view) == {"type": "knock", "card": "KS"}
    view["legal_actions"] = view["legal_actions"][:2]
    assert choose(view) == {"type": "discard", "card": "KS"}
    draw = [{"type": "draw", "from": "discard"}, {"type": "draw", "from": "stock"}]
    assert choose({"legal_actions": draw}) == {"type": "draw", "from": "stock"}
    upcard = [{"type": "take_upcard"}, {"type": "pass"}]
    assert choose({"legal_actions": upcard}) == {"type": "pass"}
