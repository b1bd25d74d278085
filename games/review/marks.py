"""What a decision's cost means: its mark, its accuracy, and the accuracy of many decisions.

A cost is in percentage points of the chance to win the match (``games.ai.judge``): 4.0 means
the decision played left its player 4 points less likely to win the match, by Bea's play-outs,
than her own choice would have. The play-outs are noisy: the same decision judged in other
sampled worlds moves by one or two points, now and then by more, so nothing under
``INACCURACY`` is marked (docs/review.md).
"""

from __future__ import annotations

import math
from collections.abc import Iterable

INACCURACY = 3.0
MISTAKE = 6.0
BLUNDER = 12.0

MARKS = (("blunder", BLUNDER), ("mistake", MISTAKE), ("inaccuracy", INACCURACY))


def mark(cost: float) -> str | None:
    """``blunder``, ``mistake``, ``inaccuracy`` or None (no mark), by the thresholds above."""
    for name, threshold in MARKS:
        if cost >= threshold:
            return name
    return None


def accuracy(cost: float) -> float:
    """One decision's accuracy, 0 to 100, from its cost as lichess computes a move's from the
    drop in winning chances: 103.1668 e^(-0.04354 cost) - 3.1669 (100 for no cost)."""
    if cost <= 0:
        return 100.0
    return max(0.0, min(100.0, 103.1668 * math.exp(-0.04354 * cost) - 3.1669))


def overall(costs: Iterable[float]) -> float | None:
    """The accuracy of many decisions: the mean of their accuracies' arithmetic and harmonic
    means (each at least 1 in the harmonic mean), so one blunder among many good decisions
    weighs more than its share; None for no decision."""
    values = [accuracy(c) for c in costs]
    if not values:
        return None
    mean = sum(values) / len(values)
    harmonic = len(values) / sum(1 / max(1.0, v) for v in values)
    return round((mean + harmonic) / 2, 1)
