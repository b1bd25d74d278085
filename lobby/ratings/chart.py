"""The profile's rating chart: one server-rendered SVG per preset, no script.

The geometry is worked out here, in the SVG's own units (a viewBox of WIDTH x HEIGHT that
scales with the page); ``templates/lobby/rating_chart.html`` draws it. The x axis counts
rated matches (the start, then after each match), so a burst of matches in one evening is as
readable as a month of them; the y axis has three to five round ratings.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from games.labels import PRESET_NAMES
from lobby.moderation.models import RatingRefund

from .glicko import START_RATING
from .models import RatingChange
from .reads import history, ratings_of

WIDTH, HEIGHT = 400, 230
LEFT, RIGHT, TOP, BOTTOM = 46, 14, 30, 44
STEPS = (5, 10, 20, 25, 50, 100, 200, 250, 500, 1000)
MAX_TICKS = 5


@dataclass(frozen=True)
class Chart:
    preset: str
    title: str
    desc: str
    # Coordinates are strings, written here: a template would localise 12.5 into "12,5",
    # which SVG reads as two coordinates.
    points: str  # the polyline's "x,y x,y ..."
    last: tuple[str, str]
    y_ticks: list[tuple[str, str]]  # (y, rating)
    x_ticks: list[tuple[str, str]]  # (x, matches played)
    width: str = str(WIDTH)
    height: str = str(HEIGHT)
    left: str = str(LEFT)
    label_right: str = str(LEFT - 6)
    right_edge: str = str(WIDTH - RIGHT)
    bottom_edge: str = str(HEIGHT - BOTTOM)
    x_labels: str = str(HEIGHT - BOTTOM + 18)
    axis_bottom: str = str(HEIGHT - 4)


def _y_range(values: Sequence[float]) -> tuple[int, int, int]:
    """Round bounds around ``values`` and the step between the ticks."""
    lo, hi = min(values), max(values)
    for step in STEPS:
        bottom, top = int(lo // step) * step, -int(-hi // step) * step
        if top == bottom:
            top += step
        if (top - bottom) // step + 1 <= MAX_TICKS:
            return bottom, top, step
    return int(lo), int(hi) + 1, int(hi - lo) + 1


def chart(preset: str, changes: Sequence[RatingChange | RatingRefund]) -> Chart | None:
    """The chart of a player's rated results in ``preset`` (oldest first, refunds among
    them: a step of their own); None for none."""
    if not changes:
        return None
    ratings = [changes[0].before if changes else START_RATING] + [c.after for c in changes]
    bottom, top, step = _y_range(ratings)
    span_x = WIDTH - RIGHT - LEFT
    span_y = HEIGHT - BOTTOM - TOP
    n = len(ratings) - 1

    def x(i: int) -> str:
        return f"{LEFT + span_x * i / n:.1f}"

    def y(r: float) -> str:
        return f"{TOP + span_y * (top - r) / (top - bottom):.1f}"

    name = str(PRESET_NAMES.get(preset, preset))
    return Chart(
        preset=preset,
        title=_("%(preset)s rating over time") % {"preset": name},
        desc=_(
            "From %(first)s to %(last)s over %(n)s rated matches; lowest %(low)s, highest %(high)s."
        )
        % {
            "first": round(ratings[0]),
            "last": round(ratings[-1]),
            "n": sum(1 for c in changes if getattr(c, "kind", "result") == "result"),
            "low": round(min(ratings)),
            "high": round(max(ratings)),
        },
        points=" ".join(f"{x(i)},{y(r)}" for i, r in enumerate(ratings)),
        last=(x(n), y(ratings[-1])),
        y_ticks=[(y(v), str(v)) for v in range(bottom, top + 1, step)],
        x_ticks=[(x(i), str(i)) for i in sorted({0, n // 2, n})],
    )


def profile_ratings(user: Any) -> list[dict[str, object]]:
    """The profile's ratings: each preset's rating, its chart when it has a history, and the
    refunds in that history (listed under the chart)."""
    shown = ratings_of(user)
    found = []
    for preset, rating in shown.items():
        points = history(user, preset)
        found.append(
            {
                "preset": preset,
                "label": PRESET_NAMES.get(preset, preset),
                "rating": rating,
                "chart": chart(preset, points),
                "refunds": [p for p in points if getattr(p, "kind", "") == "refund"],
            }
        )
    return found
