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
# hands): fifteen knocks, two undercuts, one gin.
KNOCKS = (2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 23, 26, 30, 35, 42)
UNDERCUTS = (27, 31)
GINS = (48,)
HAND_POINTS = KNOCKS + UNDERCUTS + GINS


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


@lru_cache(maxsize=8)
def scale(target: int) -> float:
    """Points per unit of equity at the start of a match, so that equity reads like points."""
    eq = table(target)
    step = 10
    slope = (eq[target - step][target] - eq[target][target - step]) / (2 * step)
    return 1.0 / slope if slope > 0 else 1.0


def plain(x: float) -> float:
    """A hand's points taken as they are (no match equity)."""
    return x


def needs(view: dict[str, Any]) -> tuple[int, int]:
    """The points the viewer and the opponent each still need to reach the target."""
    target = int(view["rules"]["target"])
    seat = view["seat"]
    scores = view.get("scores") or [0, 0]
    return max(1, target - scores[seat]), max(1, target - scores[1 - seat])


def worth(view: dict[str, Any]) -> Callable[[float], float]:
    """For one view, the change in match equity a hand result of ``x`` points to the viewer
    (negative: to the opponent) brings, scaled so that early in a match it reads like points."""
    target = int(view["rules"]["target"])
    need, theirs = needs(view)
    eq = table(target)
    per_unit = scale(target)
    now = eq[need][theirs]

    def value(x: float) -> float:
        points = round(x)
        if points > 0:
            after = eq[max(0, need - points)][theirs]
        elif points < 0:
            after = eq[need][max(0, theirs + points)]
        else:
            after = now
        return (after - now) * per_unit

    return value
