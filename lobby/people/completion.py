"""How reliably a player finishes their lobby matches: the completion badge of the lobby's
players list, the profile page and the API.

A player's completion is the share of their last ``LAST`` finished lobby matches that they did
not walk out of: abandoning a match, or losing it on time (the opponent claimed the win while
they stayed away), counts against them; a resignation is an ordinary loss and does not. A
restarted match was replaced by agreement and counts for nobody, as in the statistics.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from django.db.models import F, Window
from django.db.models.functions import RowNumber

from games.models import Match, Seat

LAST = 50
# Ends that count against the loser (the seat that is not ``winner_seat``).
WALKED_OUT = (Match.Status.ABANDONED, Match.Status.TIMED_OUT)
FINISHED = (
    Match.Status.FINISHED,
    Match.Status.RESIGNED,
    Match.Status.ABANDONED,
    Match.Status.TIMED_OUT,
)


def of_players(user_ids: Iterable[int]) -> dict[int, int | None]:
    """Each player's completion in whole per cent (rounded down, so 100 means never), or None
    for a player with no finished lobby match. One query, however many players."""
    ids = list(set(user_ids))
    result: dict[int, int | None] = dict.fromkeys(ids)
    if not ids:
        return result
    # Each player's seats in finished lobby matches, newest first, numbered per player; the
    # database keeps the first LAST of each (a filter on the window: a subquery).
    rows = (
        Seat.objects.filter(
            user_id__in=ids,
            kind=Seat.Kind.PLAYER,
            match__kind=Match.Kind.LOBBY,
            match__status__in=FINISHED,
        )
        .annotate(
            recent=Window(
                RowNumber(),
                partition_by=F("user_id"),
                order_by=[F("match__finished_at").desc(nulls_last=True), F("match_id").desc()],
            )
        )
        .filter(recent__lte=LAST)
        .values_list("user_id", "number", "match__status", "match__winner_seat")
    )
    played: dict[int, int] = defaultdict(int)
    walked_out: dict[int, int] = defaultdict(int)
    for user_id, seat, status, winner in rows:
        played[user_id] += 1
        if status in WALKED_OUT and winner is not None and winner != seat:
            walked_out[user_id] += 1
    for user_id, count in played.items():
        result[user_id] = (count - walked_out[user_id]) * 100 // count
    return result


def of(user_id: int) -> int | None:
    """One player's completion (``of_players``)."""
    return of_players([user_id])[user_id]
