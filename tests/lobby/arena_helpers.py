"""Arenas for the arena tests: one made at the frozen clock, matches won or aborted through
games' door."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone

from games.models import Match
from lobby.arena.models import Arena, ArenaMatch
from tests.lobby.rating_helpers import play, resign


def arena(minutes: int = 30, *, starts_in: int = 0, **fields: Any) -> Arena:
    start = timezone.now() + timedelta(minutes=starts_in)
    defaults: dict[str, Any] = {
        "kind": Arena.Kind.SCHEDULED,
        "name": "Hourly Standard",
        "preset": "standard",
        "target": 100,
        "rated": True,
    }
    return Arena.objects.create(
        starts_at=start, ends_at=start + timedelta(minutes=minutes), **{**defaults, **fields}
    )


def match_of(user: Any) -> Match:
    """The running arena match of this player."""
    found = ArenaMatch.objects.filter(counted_at=None).select_related("match")
    return next(a.match for a in found if user.pk in (a.first_id, a.second_id))


def seat_of(match: Match, user: Any) -> int:
    return next(s.number for s in match.seats.all() if s.user_id == user.pk)


def win(user: Any) -> Match:
    """``user`` wins their arena match: the first hand played out, then the other resigns."""
    match = match_of(user)
    play(match)
    match.refresh_from_db()
    if match.is_active:
        resign(match, 1 - seat_of(match, user))
    match.refresh_from_db()
    return match


def abort(user: Any) -> Match:
    """``user`` resigns their arena match before its first hand is over."""
    match = match_of(user)
    resign(match, seat_of(match, user))
    return match
