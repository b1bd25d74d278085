"""Latencies summarized: nearest-rank percentiles, in milliseconds."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass


def percentile(ordered: Sequence[float], p: float) -> float:
    """The nearest-rank ``p``-th percentile (0 < p <= 100) of values sorted ascending: the
    smallest value with at least p% of the values at or below it."""
    if not ordered:
        raise ValueError("no values")
    rank = math.ceil(p / 100 * len(ordered))
    return ordered[min(max(rank, 1), len(ordered)) - 1]


@dataclass(frozen=True)
class Summary:
    """Latencies in milliseconds."""

    n: int
    p50: float | None = None
    p95: float | None = None
    p99: float | None = None
    max: float | None = None


def summarize(seconds: Iterable[float]) -> Summary:
    ordered = sorted(s * 1000 for s in seconds)
    if not ordered:
        return Summary(0)
    return Summary(
        len(ordered),
        percentile(ordered, 50),
        percentile(ordered, 95),
        percentile(ordered, 99),
        ordered[-1],
    )
