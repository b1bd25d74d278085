"""Glicko-2 (Glickman, "Example of the Glicko-2 system", 2012) through the ``glicko2`` package.

One match is one rating period for each of its two players, as on lichess: each is rated
against the other's rating and deviation as they stood before the match.

``glicko2`` 2.1.0 computes step 5's function f(x) with the player's rating mu where the paper
has the deviation phi (``_f`` reads ``__rating``). The paper's example sits at mu = 0, so it
cannot show it; away from 1500 the volatility comes out wrong (Glicko-2 is the same for every
shift of all ratings, and the library is not). ``_Player`` puts phi back, and
tests/lobby/test_glicko.py holds both the paper's example and the shift.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import glicko2

START_RATING = 1500.0
START_RD = 350.0
START_VOLATILITY = 0.06
# Below this deviation a rating is established; at or above it, it shows as "1500?".
PROVISIONAL_RD = 110.0
# A match between two established players cannot push a deviation lower than this (lichess's
# floor): a regular player's rating keeps moving.
MIN_RD = 45.0


class Glicko(NamedTuple):
    rating: float
    rd: float
    volatility: float


START = Glicko(START_RATING, START_RD, START_VOLATILITY)


class _Player(glicko2.Player):  # type: ignore[misc]
    def _f(self, x: float, delta: float, v: float, a: float) -> float:
        phi = self._Player__rd
        ex = math.exp(x)
        num = ex * (delta**2 - phi**2 - v - ex)
        denom = 2 * ((phi**2 + v + ex) ** 2)
        return float(num / denom - (x - a) / (self._tau**2))


def rate(player: Glicko, opponents: list[tuple[Glicko, float]]) -> Glicko:
    """``player`` after one rating period against ``opponents`` (each with the score: 1 a win,
    0 a loss, 0.5 a draw), as the paper computes it."""
    one = _Player(player.rating, player.rd, player.volatility)
    one.update_player(
        [o.rating for o, _ in opponents], [o.rd for o, _ in opponents], [s for _, s in opponents]
    )
    return Glicko(float(one.rating), float(one.rd), float(one.vol))


def after_match(player: Glicko, opponent: Glicko, score: float) -> Glicko:
    """``player`` after one match against ``opponent``; the deviation kept at MIN_RD or more."""
    new = rate(player, [(opponent, score)])
    return new._replace(rd=max(new.rd, MIN_RD))


def display(rating: float, rd: float) -> str:
    """A rating as players see it: "1532", or "1500?" while it is provisional."""
    shown = str(round(rating))
    return f"{shown}?" if rd >= PROVISIONAL_RD else shown
