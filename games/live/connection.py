"""What the live parts of a table between two people show (no cards): who is connected, the
move clock and whether the win may be claimed, the open offer, the last answer, and the match
that follows.

The move clock runs in lobby matches only; the win may be claimed when the player to move let
their clock run out, or has been away too long (``games.live.presence``). A correspondence match
has days per move instead (``games.live.correspondence``), and no away-claim: being away is normal
there."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from games import lookups
from games.live import correspondence
from games.live.presence import away_seconds, is_connected, is_live
from games.lookups import OFFERS_READ
from games.models import Match, Offer
from games.state_cache import load_state
from ginsite.lib.apikit import api_time

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


# How long "X declined your offer" stays on the table after the answer.
DECLINE_SHOWN = timedelta(seconds=30)


def latest_offers(match: Match, count: int = 2) -> list[Offer]:
    """The match's newest offers, newest first: from the offers the door read with the match
    for a move (``lookups.OFFERS_READ``: a move changes none, and both players' views and the
    answer need them), else from the database."""
    read = getattr(match, OFFERS_READ, None)
    if read is not None:
        return sorted(read, key=lambda offer: offer.pk, reverse=True)[:count]
    return lookups.newest_offers(match, count)


def live_state(match: Match, seat: int | None) -> dict[str, Any] | None:
    """What the live parts of a table show (no cards): who is connected, whether the win may
    be claimed, the open offer, the last answer, and the match that follows this one."""
    if not is_live(match):
        return None
    now = timezone.now()
    seats = {s.number: s for s in match.seats.all()}
    offers = latest_offers(match)
    latest = offers[0] if offers else None
    follow = next((o.result for o in offers if o.result_id is not None), None)
    deadline = move_deadline(match)
    state: dict[str, Any] = {
        "connected": [is_connected(seats[n], now) for n in (0, 1)],
        # The move clock: until when the player to move may take their time (null: no clock).
        "move_deadline": api_time(deadline) if deadline is not None else None,
        # A correspondence match: days per move (the deadline counts from the turn's start);
        # null: a live match.
        "days_per_move": match.days_per_move,
        "next": follow.public_id if follow is not None else None,
        "offer": None,
        "answered": None,
        "claimable": False,
        "active": match.is_active,
    }
    if match.kind == Match.Kind.PRIVATE:
        # A seat taken by a newcomer changes names and the waiting message on every page.
        state["open"] = [seats[n].is_open for n in (0, 1)]
        state["names"] = [seats[n].display_name for n in (0, 1)]
    if latest is not None:
        data = {"id": latest.pk, "kind": latest.kind, "from_seat": latest.from_seat}
        if latest.status == Offer.Status.PENDING:
            state["offer"] = data
        elif latest.status == Offer.Status.DECLINED:
            # Shown for a little while, not for the rest of the match (table.js hides it).
            until = (latest.answered_at or now) + DECLINE_SHOWN
            state["answered"] = {**data, "status": latest.status, "until": api_time(until)}
    if seat is not None:
        state["claimable"] = claimable(match, seat, now)
        if state["claimable"]:
            # Why: the move clock ran out, or the player to move is away.
            late = deadline is not None and now > deadline
            state["claim_reason"] = "clock" if late else "away"
    return state
