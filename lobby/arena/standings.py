"""Where an arena's players stand: their ranks, points and streaks (a read of their rows), each
player's place for the table, and who plays whom now."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db.models import Exists, OuterRef

from lobby.events.feeds import person_json
from lobby.moderation.models import Sanction

from . import points as scoring
from .models import Arena, ArenaMatch, ArenaPlayer


@dataclass(frozen=True)
class Standing:
    rank: int
    player: ArenaPlayer
    name: str
    username: str
    performance: int | None

    @property
    def points(self) -> int:
        return self.player.points

    @property
    def streak(self) -> int:
        return self.player.streak

    @property
    def on_fire(self) -> bool:
        """The next win counts double."""
        return self.player.streak >= scoring.STREAK_FROM


def counted_players(arena: Arena) -> Any:
    """The arena's players who hold a place: not taken out, their account open, and in a rated
    arena not banned from rated play (their points are removed)."""
    found = ArenaPlayer.objects.filter(arena=arena, removed=False, user__is_active=True)
    if arena.rated:
        banned = Sanction.objects.filter(
            user_id=OuterRef("user_id"), kind=Sanction.Kind.RATED_BAN, lifted_at__isnull=True
        )
        found = found.exclude(Exists(banned))
    return found


def standings(arena: Arena, limit: int | None = None) -> list[Standing]:
    """The arena's players by rank (points, then performance, then who got there first; see
    ``points``), each with their place."""
    players = sorted(counted_players(arena).select_related("user__profile"), key=scoring.rank_key)
    if limit is not None:
        players = players[:limit]
    return [
        Standing(
            rank=i,
            player=p,
            name=person_json(p.user)["display_name"],
            username=p.user.get_username(),
            performance=scoring.performance(p.opponents_rating, p.wins, p.games),
        )
        for i, p in enumerate(players, start=1)
    ]


# The table says each player's place beside their name (``hooks.table_links``), and a table
# renders at every move of its match: the places are read once a second per arena, not per move.
RANKS_KEPT_SECONDS = 1


def rank_of(arena: Arena, user_id: int) -> int | None:
    """The player's place now (a second old at most); None while their points do not count."""
    key = f"arena:ranks:{arena.pk}"
    ranks = cache.get(key)
    if ranks is None:
        ranks = {s.player.user_id: s.rank for s in standings(arena)}
        cache.set(key, ranks, timeout=RANKS_KEPT_SECONDS)
    return ranks.get(user_id)


def running_matches(arena: Arena) -> list[ArenaMatch]:
    """Who plays whom now."""
    found = ArenaMatch.objects.filter(arena=arena, counted_at__isnull=True)
    return list(found.select_related("match", "first__profile", "second__profile"))
