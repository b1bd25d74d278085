"""A player's public record, for their page (``lobby.views.player``) and the API: wins and
losses per preset, recent public matches and the head-to-head record of two players.

Public means played in the lobby (``Match.Kind.LOBBY``), which anyone signed in may watch.
Private tables, pass and play, lessons and matches against Bea are nobody else's business and
count in none of these; a restarted match (replaced by agreement) counts for nobody. No cards:
the rows (``games.records.matches``'s, as the player's own list shows them) hold names, rules,
scores and results only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db.models import Count, F, Q, QuerySet

from games import access
from games.labels import PRESET_NAMES
from games.models import Match, Seat, seats_with_players
from games.records.matches import Row, row_of

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

RECENT = 10
_UNPLAYED = (Match.Status.ACTIVE, Match.Status.RESTARTED)
# A match without a winner (none such is kept now, but a row may say so) is neither.
_WON = Q(number=F("match__winner_seat"))
_LOST = Q(match__winner_seat__isnull=False) & ~_WON


def _public() -> QuerySet[Match]:
    return Match.objects.filter(kind=Match.Kind.LOBBY).exclude(status=Match.Status.RESTARTED)


def _seats_of(user_id: int) -> QuerySet[Seat]:
    return Seat.objects.filter(
        user_id=user_id, kind=Seat.Kind.PLAYER, match__kind=Match.Kind.LOBBY
    ).exclude(match__status__in=_UNPLAYED)


def record(user: AbstractBaseUser) -> list[dict[str, Any]]:
    """Wins and losses per preset over the player's finished lobby matches, every preset
    listed (0 and 0 when none was played), in the order the lobby offers them."""
    rows = (
        _seats_of(user.pk)
        .values("match__rules__name")
        .annotate(
            won=Count("pk", filter=_WON),
            lost=Count("pk", filter=_LOST),
        )
    )
    counts = {row["match__rules__name"]: row for row in rows}
    return [
        {
            "preset": preset,
            "label": str(label),
            "won": counts.get(preset, {}).get("won", 0),
            "lost": counts.get(preset, {}).get("lost", 0),
        }
        for preset, label in PRESET_NAMES.items()
    ]


def recent_matches(user: AbstractBaseUser, viewer: Any, limit: int = RECENT) -> list[Row]:
    """The player's latest lobby matches as ``viewer`` may see them: running ones included
    where ``viewer`` may watch them, that is signed in and kept apart (``access.kept_apart``,
    a block either way) from neither player, as the lobby's lists of matches do. So a
    player blocked by another learns nothing of where the other is playing now, nor of the
    running matches of those the other plays; a finished match is history and stays listed."""
    matches = _public().filter(seats__user=user, seats__kind=Seat.Kind.PLAYER)
    if viewer is None or not viewer.is_authenticated:
        matches = matches.exclude(status=Match.Status.ACTIVE)
    elif apart := access.kept_apart(viewer.pk):
        running = Seat.objects.filter(user_id__in=apart, match__status=Match.Status.ACTIVE)
        matches = matches.exclude(pk__in=running.values("match_id"))
    matches = (
        matches.prefetch_related(seats_with_players())
        .distinct()
        .order_by("-created_at", "-pk")[:limit]
    )
    return [row_of(match, user.pk, hands=False) for match in matches]


def head_to_head(user: AbstractBaseUser, other: AbstractBaseUser) -> dict[str, int]:
    """``user``'s wins and losses against ``other`` in finished lobby matches."""
    theirs = Seat.objects.filter(user_id=other.pk, kind=Seat.Kind.PLAYER).values("match_id")
    rows = _seats_of(user.pk).filter(match_id__in=theirs)
    counts = rows.aggregate(won=Count("pk", filter=_WON), lost=Count("pk", filter=_LOST))
    return {"won": counts["won"], "lost": counts["lost"]}
