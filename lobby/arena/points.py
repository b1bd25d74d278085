"""What a match is worth in an arena, and who ranks above whom (no database), as lichess's
arenas count:

- a win: WIN points; a win that follows STREAK_FROM wins in a row or more (the player is on
  a streak): twice that. A loss: nothing, and the streak is over.
- an abort (the match ended before its first hand was over and both players made two moves,
  the rule rated play uses, ``lobby.ratings.results.played_enough``; or a restart): nothing
  for either, and neither streak changes. A loss on time while away: nothing, as any loss,
  and the player who was away is paused (``service``) until they come back.
- Ranks: more points first; equal points, the higher performance rating; equal again, whoever
  reached their points first (the earlier last score); then the earlier join.

A performance rating is the average rating of the opponents met (as they joined) plus 400
times (wins - losses) / games, lichess's approximation; none before a counted game.
"""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

WIN = 2
STREAK_FROM = 2


def win_points(streak_before: int) -> int:
    """The points of a win by a player who had won ``streak_before`` games in a row."""
    return WIN * 2 if streak_before >= STREAK_FROM else WIN


def performance(opponents_rating: float, wins: int, games: int) -> int | None:
    if games == 0:
        return None
    losses = games - wins
    return round(opponents_rating / games + 400 * (wins - losses) / games)


class Ranked(Protocol):
    points: int
    opponents_rating: float
    wins: int
    games: int
    scored_at: datetime | None
    joined_at: datetime
    pk: int


def rank_key(player: Ranked) -> tuple[object, ...]:
    """Sort by this, ascending: first place first (see the module for the rule)."""
    perf = performance(player.opponents_rating, player.wins, player.games)
    scored = player.scored_at.timestamp() if player.scored_at else float("inf")
    return (
        -player.points,
        -(perf if perf is not None else -10_000),
        scored,
        player.joined_at.timestamp(),
        player.pk,
    )
