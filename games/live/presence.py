"""Who is at a live table: each seat's open sockets and other signs of life, and how long the
player to move has been away. The move clock and claims, and what the live parts of a table
show (presence, offers, the next match), are ``games.live.connection``.

Shared by every server process through the database: a seat counts its open sockets and the
last time one of them proved alive. A process that dies leaves the count too high, so a seat
only counts as connected while ``last_seen`` is also fresh.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.db.models import F, Q, Value
from django.db.models.functions import Greatest
from django.utils import timezone

from games import events, lookups, outbox
from games.models import Match, Seat

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

# Each open socket of a seat touches ``last_seen`` this often; a seat whose socket has not been
# heard of for STALE_AFTER counts as away even if its close never arrived (a killed process).
HEARTBEAT_SECONDS = 10
STALE_AFTER_SECONDS = 30
# A sign of life other than a socket (a move, an API request, an open event stream) counts for
# this long; an event stream renews it at each of its keep-alives (every 10 s).
ACTIVE_FOR_SECONDS = STALE_AFTER_SECONDS
# Such a sign is written at most this often (a move or request within it changes nothing).
SIGN_WRITE_EVERY_SECONDS = 10
# A lobby match nobody has moved in for this long no longer counts as "in a match": two players
# who walked away from a table must not be barred from the lobby for ever.
LOBBY_MATCH_IDLE = timedelta(minutes=30)


def is_live(match: Match) -> bool:
    """A match between two signed-in people, or at a private table (whose guests need no
    account): presence, offers and the socket apply."""
    if match.kind == Match.Kind.PRIVATE:
        return True
    seats = list(match.seats.all())
    return len(seats) == 2 and all(
        s.kind == Seat.Kind.PLAYER and s.user_id is not None for s in seats
    )


def in_lobby_match(user_ids: Iterable[int] | None = None, now: datetime | None = None) -> set[int]:
    """Which of these players (all, when None) are seated in a live lobby match that is
    still going and not long abandoned. A player plays one live lobby match at a time, and
    any number of correspondence matches beside it (``games.live.correspondence``)."""
    since = (now or timezone.now()) - LOBBY_MATCH_IDLE
    return lookups.seated_in_live_lobby_matches(since, user_ids)


def seat_connected(match_pk: int, number: int) -> None:
    """A socket of this seat opened: count it and tell the table."""
    Seat.objects.filter(match_id=match_pk, number=number).update(
        connections=F("connections") + 1, last_seen=timezone.now()
    )
    _announce_seats(match_pk)


def seat_heartbeat(match_pk: int, number: int) -> None:
    Seat.objects.filter(match_id=match_pk, number=number).update(last_seen=timezone.now())


def seat_disconnected(match_pk: int, number: int) -> None:
    """A socket of this seat closed: it no longer counts, and the table hears of it."""
    Seat.objects.filter(match_id=match_pk, number=number).update(
        connections=Greatest(F("connections") - 1, Value(0)), last_seen=timezone.now()
    )
    _announce_seats(match_pk)


def _announce_seats(match_pk: int) -> None:
    match = Match.objects.filter(pk=match_pk).first()
    if match is not None:
        outbox.announce(match, events.SEATED)


def is_connected(seat: Seat, now: datetime | None = None) -> bool:
    """Is the seat's player here: a table socket of theirs alive, or another recent sign of
    life (a move, the API, an event stream)?"""
    now = now or timezone.now()
    socket = (
        seat.connections > 0
        and seat.last_seen is not None
        and (now - seat.last_seen).total_seconds() < STALE_AFTER_SECONDS
    )
    active = (
        seat.last_active is not None
        and (now - seat.last_active).total_seconds() < ACTIVE_FOR_SECONDS
    )
    return socket or active


def seat_active(match: Match, number: int, now: datetime | None = None) -> None:
    """The seat's player showed a sign of life about this match (a move, an API request).
    ``match`` holds its seats (prefetched); the sign is written at most every
    SIGN_WRITE_EVERY_SECONDS (it counts for ACTIVE_FOR_SECONDS), and the seat in hand is
    brought up to date too."""
    now = now or timezone.now()
    held = next(s for s in match.seats.all() if s.number == number)
    since = None if held.last_active is None else (now - held.last_active).total_seconds()
    if since is None or since > SIGN_WRITE_EVERY_SECONDS:
        held.last_active = now
        lookups.save_fields(held, ["last_active"])  # written out: every API read of a table asks


def player_active(user_id: int, now: datetime | None = None) -> None:
    """The player showed a sign of life that concerns all their matches (an open event
    stream, a read of their events): every seat of theirs in a match in progress counts as
    here. Written at most every SIGN_WRITE_EVERY_SECONDS: a poll every few seconds updates
    no row in between."""
    players_active([user_id], now)


def players_active(user_ids: Iterable[int], now: datetime | None = None) -> None:
    """``player_active`` for several players in one statement (the open streams of a
    process, beaten together)."""
    now = now or timezone.now()
    written_before = now - timedelta(seconds=SIGN_WRITE_EVERY_SECONDS)
    Seat.objects.filter(user_id__in=list(user_ids), match__status=Match.Status.ACTIVE).filter(
        Q(last_active__isnull=True) | Q(last_active__lt=written_before)
    ).update(last_active=now)


def last_sign_of_life(seat: Seat) -> datetime | None:
    """The latest time the seat's player may have been here: their sockets' last beat, or
    the last sign of life written for them, which a request within SIGN_WRITE_EVERY_SECONDS
    of it does not write again (so they may have been here until that much later)."""
    signs = [seat.last_seen] if seat.last_seen is not None else []
    if seat.last_active is not None:
        signs.append(seat.last_active + timedelta(seconds=SIGN_WRITE_EVERY_SECONDS))
    return max(signs, default=None)


def away_seconds(match: Match, seat: Seat, now: datetime | None = None) -> float:
    """How long ``seat`` has been away (0 while connected): since any sign of life of theirs
    (a socket, a move, the API, an event stream); a seat never seen is away since the match
    began."""
    now = now or timezone.now()
    if is_connected(seat, now):
        return 0.0
    since = last_sign_of_life(seat) or match.created_at
    return max(0.0, (now - since).total_seconds())


def user_at_table(user: AbstractBaseUser | AnonymousUser | None, channel: str, signal: Any) -> None:
    """A signed-in person's table socket opened, beat or closed: whoever follows presence
    (the lobby) hears of it."""
    if user is not None and user.is_authenticated:
        events.tell(signal, user=user, channel=channel)
