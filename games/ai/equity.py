"""Match equity: what a hand's points are worth toward winning the match.

Far from the target a point is a point, but near it they are not: 12 points that end the match
are worth more than 40 that do not, and an opponent who needs 5 wins the match with any knock.
``table(target)[a][b]`` is the chance of winning a match needing ``a`` points while the
opponent needs ``b``, for two equal players whose hands end in the mix of outcomes below
(measured in arena runs: most hands are knocks of 1-35 points, about one in twelve an undercut,
one in twenty-five a gin). Bea weighs a knock, or a hand played out, by the equity of its result.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

# Points the winner of a hand scores, each entry equally likely (a coarse histogram of arena
# hands: knocks, then undercuts, then gins).
HAND_POINTS = (
    *(2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 23, 26, 30, 35, 42),
    *(27, 31),
    (48),
)


@lru_cache(maxsize=8)
def table(target: int) -> list[list[float]]:
    """``[a][b]``: the chance of winning needing ``a`` (1..target) against ``b`` (1..target).
    Index 0 stands for "already reached": ``[0][b] = 1`` and ``[a][0] = 0``."""
    share = 0.5 / len(HAND_POINTS)
    size = target + 1
    eq = [[0.0] * size for _ in range(size)]
    for b in range(1, size):
        eq[0][b] = 1.0
    for a in range(1, size):
        for b in range(1, size):
            total = 0.0
            for x in HAND_POINTS:
                total += share * (eq[max(0, a - x)][b] + eq[a][max(0, b - x)])
            eq[a][b] = total
    return eq


def worth(view: dict[str, Any]) -> Callable[[float], float]:
    """For one view, the match equity (in points of a 100-point scale) of a hand result of
    ``x`` points to the viewer (negative: to the opponent)."""
    target = int(view["rules"]["target"])
    seat = view["seat"]
    scores = view.get("scores") or [0, 0]
    need = max(1, target - scores[seat])
    theirs = max(1, target - scores[1 - seat])
    eq = table(target)
    # Scale so that, far from the target, one point is worth about one point.
    now = eq[need][theirs]

    def value(x: float) -> float:
        points = round(x)
        if points > 0:
            after = eq[max(0, need - points)][theirs]
        elif points < 0:
            after = eq[need][max(0, theirs + points)]
        else:
            after = now
        return (after - now) * SCALE[target]

    return value


class _Scale(dict[int, float]):
    """Points per unit of equity at the start of a match, so equity reads like points."""

    def __missing__(self, target: int) -> float:
        eq = table(target)
        step = 10
        slope = (eq[target - step][target] - eq[target][target - step]) / (2 * step)
        self[target] = value = 1.0 / slope if slope > 0 else 1.0
        return value


SCALE = _Scale()
