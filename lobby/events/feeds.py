"""What goes into the players' event logs (``lobby.events.log``): a challenge sent or answered,
a match that changed. Each is recorded for every player it concerns: a challenge after the
change that caused it (a failure is logged, never raised into that change), a match change in
the change's own transaction (games' outbox rolls a failed delivery back to its savepoint and
delivers it again after the commit). Who is in the
lobby is not logged per player: see ``lobby.presence.note_change``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import datetime
from typing import Any

from django.db import transaction

from games import access, readers
from games.events import MatchChanged
from games.live import quick_messages
from games.models import Match, Seat
from ginsite.lib.apikit import api_time
from lobby.arena import of_match
from lobby.events import log as event_log
from lobby.models import Challenge, display_name_of

log = logging.getLogger(__name__)


def _after_commit(fn: Callable[[], None]) -> None:
    """Run ``fn`` once the surrounding transaction commits (at once outside one)."""

    def run() -> None:
        try:
            fn()
        except Exception:
            log.exception("could not record an event")

    transaction.on_commit(run)


def person_json(user: Any) -> dict[str, str]:
    """A player as the API shows them."""
    return {"username": user.get_username(), "display_name": display_name_of(user)}


# --- Challenges ---------------------------------------------------------------------------------


def challenge_json(item: Challenge, reader_id: int) -> dict[str, Any]:
    """A challenge as the API shows it to one of its two players."""
    return {
        "id": item.pk,
        "direction": "outgoing" if item.challenger_id == reader_id else "incoming",
        "challenger": person_json(item.challenger),
        "challenged": person_json(item.challenged),
        "preset": item.preset,
        "target": item.target,
        "hints": item.hints,
        "rated": item.rated,
        "days_per_move": item.days_per_move,
        "status": item.status,
        "reason": item.reason or None,
        "created_at": api_time(item.created_at),
        "expires_at": api_time(item.expires_at),
        "answered_at": api_time(item.answered_at) if item.answered_at else None,
        "match": item.match.public_id if item.match_id and item.match else None,
        "counter": _counter_json(item),
        "counter_to": item.counter_to_id,
    }


# What ``challenge_json`` reads besides the challenge: with these, none of it costs a query.
CHALLENGE_RELATED = (
    "challenger__profile",
    "challenged__profile",
    "match",
    "counter__match",
)


def _counter_json(item: Challenge) -> dict[str, Any] | None:
    """The counter-proposal a declined challenge came back with (a challenge the other way)."""
    try:
        counter = item.counter
    except Challenge.DoesNotExist:
        return None
    return {
        "id": counter.pk,
        "preset": counter.preset,
        "target": counter.target,
        "hints": counter.hints,
        "days_per_move": counter.days_per_move,
        "status": counter.status,
        "expires_at": api_time(counter.expires_at),
        "match": counter.match.public_id if counter.match_id and counter.match else None,
    }


def _record_challenges(ids: Iterable[int]) -> None:
    items = Challenge.objects.filter(pk__in=list(ids)).select_related(*CHALLENGE_RELATED)
    for item in items:
        players = (item.challenger_id, item.challenged_id)
        event_log.record_all(
            [event_log.Entry(p, "challenge", challenge_json(item, p)) for p in players]
        )


def challenge_changed(challenge_id: int) -> None:
    """A challenge was sent (or changed): both its players hear of it after the commit."""
    _after_commit(lambda: _record_challenges([challenge_id]))


def challenges_closed_at(when: datetime) -> None:
    """Every challenge answered, cancelled or expired at ``when`` (services stamp a whole
    change with one time): both players of each hear of it after the commit."""

    def run() -> None:
        ids = Challenge.objects.filter(answered_at=when).values_list("pk", flat=True)
        _record_challenges(ids)

    _after_commit(run)


# --- Matches ------------------------------------------------------------------------------------


def match_json(change: MatchChanged) -> dict[str, Any]:
    """What a match event stores: which match, at which version, the arena it is played in
    (or null); never a card."""
    return {
        "match": change.public_id,
        "version": change.version,
        "status": change.status,
        "arena": arena_of(change) if change.kind == Match.Kind.LOBBY else None,
    }


# The arena seating a match now (``seating_for``): the match's first event is recorded while it
# is made, before the arena's row that names it exists.
_seating: ContextVar[str | None] = ContextVar("arena_seating", default=None)


@contextmanager
def seating_for(arena_public_id: str) -> Iterator[None]:
    """Around the making of an arena's match: its first event names the arena too."""
    token = _seating.set(arena_public_id)
    try:
        yield
    finally:
        _seating.reset(token)


def arena_of(change: MatchChanged) -> str | None:
    """The public id of the arena that seated this lobby match, if one did (only lobby matches
    are ever an arena's: the others cost no query; each process keeps the answer)."""
    seating = _seating.get()
    if seating is not None:
        return seating
    return of_match.arena_of(change.match_id, change.public_id)


def match_changed(change: MatchChanged, match: Match | None = None) -> None:
    """A match changed (games announced it, in the change's transaction): its players hear
    of it. With the door's ``match`` at hand, each player's view rides along with the push,
    so their streams need not read the match again."""
    payload = match_json(change)
    entries = []
    for user_id in set(change.players):
        seat = access.seat_of_account(match, user_id) if match is not None else None
        delivered = None
        if match is not None and seat is not None:
            view = readers.view_for(match, seat)
            delivered = event_log.match_data(payload, seat, match.status, view)
        entries.append(event_log.Entry(user_id, "match", payload, delivered))
    event_log.record_all(entries)


# --- Quick messages -----------------------------------------------------------------------------


def quick_message(match: Match, seat: int, message: str) -> None:
    """A player said a quick message (``games.live.quick_messages``): each player of the match who
    has an account and did not mute it hears of it, the sender too (their other devices)."""
    muted = quick_messages.muted_readers(match.pk)
    seats = list(match.seats.all())
    sender = next((s for s in seats if s.number == seat), None)
    payload = {
        "match": match.public_id,
        "seat": seat,
        "from": sender.user.get_username() if sender and sender.user else None,
        "message": message,
    }
    event_log.record_all(
        [
            event_log.Entry(s.user_id, "message", {**payload, "mine": s.number == seat})
            for s in seats
            if s.user_id is not None
            and s.kind == Seat.Kind.PLAYER
            and quick_messages.reader_key(s.number, None) not in muted
        ]
    )
