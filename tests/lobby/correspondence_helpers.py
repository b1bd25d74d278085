"""Correspondence matches for the tests: a frozen clock the test moves on by hand (the
``clock`` fixture, in conftest), and a correspondence match made through the lobby's door and
dealt."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from games.models import Match
from games.state_cache import load_state
from lobby import services as lobby_services
from tests.seeds import deal

from .lobby_helpers import online


class Clock:
    """``django.utils.timezone.now`` frozen at a moment, moved on only by ``advance``."""

    def __init__(self, start: datetime) -> None:
        self.now = start

    def advance(self, **delta: float) -> datetime:
        self.now += timedelta(**delta)
        return self.now


def correspondence_match(one: Any, two: Any, days: int = 1, *, rated: bool = False) -> Match:
    """``one`` challenges ``two`` to a correspondence match of ``days`` per move, ``two``
    accepts, and the first hand is dealt: ``one`` (seat 0) is to move."""
    online(one)
    made = lobby_services.challenge(one, two, "standard", 100, rated=rated, days_per_move=days)
    match = lobby_services.accept_challenge(made, two)
    deal(match)
    match.refresh_from_db()
    assert load_state(match).to_act == 0
    return match


def to_act(match: Match) -> int | None:
    match.refresh_from_db()
    return load_state(match).to_act
