"""A player's record over all their matches, for profile pages and the API."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db.models import F, Max

from games.models import HandRecord, Match, Seat

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser


def player_stats(user: AbstractBaseUser) -> dict[str, int]:
    """Matches played and won, hands won, gins, undercuts and the best hand score."""
    # A restarted match was replaced by agreement: it counts for nobody.
    unplayed = (Match.Status.ACTIVE, Match.Status.RESTARTED)
    finished = Match.objects.filter(seats__user=user, seats__kind=Seat.Kind.PLAYER).exclude(
        status__in=unplayed
    )
    won = Match.objects.filter(
        seats__user=user, seats__kind=Seat.Kind.PLAYER, seats__number=F("winner_seat")
    ).exclude(status__in=unplayed)
    hands = HandRecord.objects.filter(
        match__seats__user=user,
        match__seats__kind=Seat.Kind.PLAYER,
        match__seats__number=F("winner_seat"),
    )
    return {
        "matches_played": finished.distinct().count(),
        "matches_won": won.distinct().count(),
        "hands_won": hands.count(),
        "gins": hands.filter(kind__in=["gin", "big_gin"]).count(),
        "undercuts": hands.filter(kind="undercut").count(),
        "best_hand": hands.aggregate(best=Max("points"))["best"] or 0,
    }
