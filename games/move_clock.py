"""The move clock of a lobby match, and when a player may claim the win: the player to move
let their clock run out, or has been away too long (``games.presence``). A correspondence
match has days per move instead (``games.correspondence``), and no away-claim: being away is
normal there."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone

from . import correspondence
from .models import Match
from .presence import away_seconds, is_live
from .state_cache import load_state

# How long the player to move may be away before the other may claim the win.
CLAIM_AFTER_SECONDS = 60
# The move clock of a lobby match: a player who is here but does not move for this long in
# their turn may also lose on time (the other claims it). Friends at a private table and
# matches against Bea have no clock.
MOVE_LIMIT_SECONDS = 120


def move_deadline(match: Match) -> datetime | None:
    """Until when the player to move may take their time (lobby matches only), or None."""
    if match.kind != Match.Kind.LOBBY or not match.is_active:
        return None
    if match.days_per_move:
        return correspondence.deadline(match)
    return (match.moved_at or match.created_at) + timedelta(seconds=MOVE_LIMIT_SECONDS)


def claimable(match: Match, seat: int, now: datetime | None = None) -> bool:
    """May ``seat`` claim the win? Only in a live match in progress whose player to move,
    the other seat, let their clock run out or has been away longer than
    CLAIM_AFTER_SECONDS; in a correspondence match only once their days ran out."""
    if not match.is_active or not is_live(match):
        return False
    # Friends at a private table wait for each other: the seed promises that a player can
    # come back after a break by reopening the link.
    if match.kind == Match.Kind.PRIVATE:
        return False
    if load_state(match).to_act != 1 - seat:
        return False
    now = now or timezone.now()
    deadline = move_deadline(match)
    if deadline is not None and now > deadline:
        return True  # here or not, they let their clock run out
    if match.days_per_move:
        return False  # correspondence: away is normal, only the days count
    other = next(s for s in match.seats.all() if s.number == 1 - seat)
    return away_seconds(match, other, now) > CLAIM_AFTER_SECONDS
