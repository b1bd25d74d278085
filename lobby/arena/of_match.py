"""Which arena a lobby match is played in: every answer about a lobby match and every event of
one names it (``hooks.match_fields``, ``lobby.events.feeds``), which is a query per move. A
match's arena never changes (the arena's row is made in the transaction that makes the match),
so each process keeps the answer once it has read it, by the match's id and public id."""

from __future__ import annotations

from functools import lru_cache

from .models import ArenaMatch

KEPT = 8192  # matches whose answer a process keeps


@lru_cache(maxsize=KEPT)
def arena_of(match_id: int, public_id: str) -> str | None:
    """The arena's public id, or None for a lobby match of no arena. Not to be asked inside
    the transaction that seats an arena's match (``lobby.events.feeds.seating_for`` answers
    there)."""
    found = ArenaMatch.objects.filter(match_id=match_id).values_list("arena__public_id", flat=True)
    return found.first()
