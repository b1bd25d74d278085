"""What ``games`` announces, and to whom it is none of its business.

Games publishes; others subscribe (DESIGN.md principle 7). When a match changes, the door
calls ``outbox.announce`` once, in the change's own transaction, and every receiver of
``match_changed`` hears a ``MatchChanged`` there: ids, versions and who is seated, never a
card (and the ``match`` object the door holds, to spare a second read; None when the sweep
delivers a change later). Receivers run inside the change's transaction: what they store
commits with the change, and what they push to sockets waits for the commit
(``transaction.on_commit``). The table push and Bea's
replies subscribe in ``GamesConfig.ready``, the lobby's event log, lists and presence in
``LobbyConfig.ready``. Games imports nothing of its subscribers.

A person's socket at a table is a sign of life the lobby cares about too (a player at a table
is online, "in a match"): the table's consumer says so through ``table_opened``,
``table_alive`` and ``table_closed``, each with the ``user`` and the socket's ``channel``.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from django.dispatch import Signal

from .models import Match, Seat
from .state_cache import load_state

log = logging.getLogger(__name__)

# Why a match changed. A subscriber keys on these, never on the shape of the state.
STARTED = "started"  # a new match (a challenge, a seek, an offer, a table, Bea)
MOVED = "moved"  # an action that kept the hand going
HAND_ENDED = "hand_ended"  # an action that ended a hand (scores changed)
ENDED = "ended"  # the match is over: played out, resigned, abandoned, claimed, restarted
OFFERED = "offered"  # a rematch or restart offer made or answered
SEATED = "seated"  # who sits or is connected at the table changed

match_changed = Signal()  # kwargs: change (MatchChanged)
table_opened = Signal()  # kwargs: user, channel
table_alive = Signal()  # kwargs: user, channel
table_closed = Signal()  # kwargs: user, channel


@dataclass(frozen=True)
class MatchChanged:
    """One committed change of one match, as every subscriber receives it."""

    match_id: int
    public_id: str
    kind: str  # Match.Kind
    status: str  # Match.Status after the change
    version: int
    to_act: int | None  # the seat to move now (None: nobody, or the match is over)
    reason: str  # STARTED, MOVED, ...
    players: tuple[int, ...]  # the user ids of the seats held by accounts
    bea_seat: int | None  # the seat Bea plays, if she plays


def describe(
    match: Match, reason: str, to_act: int | None = None, *, fresh_seats: bool = False
) -> MatchChanged:
    """What a change of ``match`` announces, as its row stands now (``to_act`` from the door's
    state; looked up from the cached state when not given). ``fresh_seats``: the match's
    prefetched seats were read in this transaction, so they need not be read again."""
    if to_act is None and match.is_active:
        to_act = load_state(match).to_act
    if fresh_seats:
        seats = list(match.seats.all())
    else:
        seats = list(Seat.objects.filter(match_id=match.pk).order_by("number"))
    return MatchChanged(
        match_id=match.pk,
        public_id=match.public_id,
        kind=match.kind,
        status=match.status,
        version=match.version,
        to_act=to_act if match.is_active else None,
        reason=reason,
        players=tuple(
            s.user_id for s in seats if s.kind == Seat.Kind.PLAYER and s.user_id is not None
        ),
        bea_seat=next((s.number for s in seats if s.kind == Seat.Kind.BEA), None),
    )


def publish(change: MatchChanged, match: Match | None = None) -> bool:
    """Deliver ``change`` to every subscriber now; False if one of them failed (logged).

    ``match``: the changed match as the door holds it in the change's transaction (its seats
    read under the row lock), so that subscribers need not read it again; None when the
    change is delivered later (the sweep), when subscribers read what they need."""
    return tell(
        match_changed,
        about=f" on {change.public_id} v{change.version} ({change.reason})",
        change=change,
        match=match,
    )


def tell(signal: Signal, *, about: str = "", **kwargs: Any) -> bool:
    """Send one of games' signals; a failing subscriber is logged, never raised, and the
    others still hear of it. True if none failed."""
    ok = True
    for receiver, result in signal.send_robust(sender=Match, **kwargs):
        if isinstance(result, Exception):
            ok = False
            name = getattr(receiver, "__qualname__", receiver)
            log.error("subscriber %s failed%s", name, about, exc_info=result)
    return ok
