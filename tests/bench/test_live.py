"""bench.live's own arithmetic, pacing, connections and move choice (the benchmark itself is
never run here)."""

from __future__ import annotations

import asyncio
import statistics
from collections import Counter

import pytest

from bench.harness.connections import Http
from bench.harness.pacing import MOVE_PERIOD, moments
from bench.harness.stats import percentile, summarize
from bench.live.players import choose


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


def _per_tenth(pace: str, matches: int, seconds: float) -> list[int]:
    """How many of ``matches`` matches' moves fall in each tenth of a second."""
    counts = Counter(
        int(moment * 10)
        for i in range(matches)
        for moment in moments(i, matches, 0.0, seconds, pace)
    )
    return [counts[k] for k in range(int(seconds * 10))]


def test_even_moments_never_meet_and_random_ones_bunch_up_at_the_same_rate():
    even, crowd = _per_tenth("even", 200, 60.0), _per_tenth("random", 200, 60.0)
    # One move per match every MOVE_PERIOD on average, either way.
    assert sum(even) == 200 * 60 / MOVE_PERIOD
    assert sum(crowd) == pytest.approx(200 * 60 / MOVE_PERIOD, rel=0.03)
    # Evenly spread, every tenth of a second carries the same ten moves; a crowd's moves
    # come in bursts and lulls, as a Poisson stream's (variance close to the mean of 10).
    assert set(even) == {10}
    assert statistics.pvariance(crowd) > 5
    assert max(crowd) >= 20


def test_random_moments_are_think_times_of_one_to_three_periods_and_repeat_per_match():
    first = list(moments(7, 100, 0.0, 600.0, "random"))
    gaps = [b - a for a, b in zip(first, first[1:], strict=False)]
    assert 0 <= first[0] < MOVE_PERIOD
    assert min(gaps) >= 0.5 * MOVE_PERIOD and max(gaps) <= 1.5 * MOVE_PERIOD
    assert statistics.mean(gaps) == pytest.approx(MOVE_PERIOD, rel=0.05)
    # The relay pair i and the match i of one run move at the same moments.
    assert list(moments(7, 100, 0.0, 600.0, "random")) == first
    assert list(moments(8, 100, 0.0, 600.0, "random")) != first


@pytest.mark.parametrize(("fresh", "connections"), [(True, 3), (False, 1)])
def test_fresh_http_opens_a_connection_per_request(fresh, connections):
    async def scenario() -> tuple[int, list[int]]:
        opened = 0

        async def answer(reader, writer):
            nonlocal opened
            opened += 1
            while True:
                try:
                    head = await reader.readuntil(b"\r\n\r\n")
                except asyncio.IncompleteReadError:
                    return  # the client closed its kept connection
                close = b"Connection: close" in head
                writer.write(
                    b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n"
                    + (b"Connection: close\r\n" if close else b"")
                    + b"\r\n{}"
                )
                await writer.drain()
                if close:
                    writer.close()
                    return

        server = await asyncio.start_server(answer, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        http = Http(port, fresh=fresh)
        statuses = [(await http.call("GET", "/api/v1/me")).status for _ in range(3)]
        http.close()
        server.close()
        return opened, statuses

    opened, statuses = asyncio.run(scenario())
    assert statuses == [200, 200, 200]
    assert opened == connections
