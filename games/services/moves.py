"""Moves: one player's action, stored and announced; and the deal of a hand whose wait for the
players' seeds is over (docs/fairness.md)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import events, lookups, outbox
from games.engine import IllegalAction, MatchState, apply
from games.live.presence import is_connected, seat_active
from games.models import Action, HandRecord, Match
from games.state_cache import SEED_WAIT_SECONDS, load_state, pending
from games.table import add_ons as extras
from ginsite.lib.refusals import Refused

from .checks import CURRENT, ROW_FIELDS, checked, copy_row, lock_for, stale
from .refusals import IllegalMove, NotConnected, StaleVersion

SEED_WAIT = timedelta(seconds=SEED_WAIT_SECONDS)


def submit(match: Match, seat: int, action: Any, version: Any) -> MatchState:
    """Apply ``action`` for ``seat`` if ``version`` is still the match's version.

    Raises ``Refused`` (stale or repeated version, closed match, illegal move) and then
    changes nothing. Returns the new state; the match row is refreshed in place.
    """
    seeding = _seeding(action)
    try:
        with transaction.atomic(), ExitStack() as pending_until_commit:
            # What a move reads goes with the lock: the offers, once for the two players'
            # views and the answer (a move changes no offer), and whether an announcement waits.
            locked = lock_for(match, CURRENT if seeding else version, move=True)
            after = _move(locked, seat, action, version, pending_until_commit)
    except IntegrityError:
        raise _repeated() from None
    copy_row(locked, match)
    # The answer's view reads the offers from the caller's instance.
    setattr(match, lookups.OFFERS_READ, getattr(locked, lookups.OFFERS_READ))
    return after


class Moving:
    """The match of a move, locked in the move's transaction (``moving``): None when there is
    no such match. The caller finds the seat in it and makes the move with ``make``."""

    def __init__(self, match: Match | None, pending_until_commit: ExitStack) -> None:
        self.match = match
        self._pending = pending_until_commit

    def make(self, seat: int, action: Any, version: Any) -> MatchState:
        """``seat``'s move, checked and stored; raises ``Refused`` having changed nothing. Until
        the block ends, ``self.match`` reads as the position the move left (what the caller
        renders of it, the move's events render once)."""
        assert self.match is not None
        self.match = checked(self.match, CURRENT if _seeding(action) else version)
        return _move(self.match, seat, action, version, self._pending)


@contextmanager
def moving(public_id: str) -> Iterator[Moving]:
    """The match ``public_id`` locked for a move, with its seats and offers, read together in
    one round trip: a move's hot path, with no read before it. The block finds the seat, makes
    the move and reads what it answers with, in the move's transaction: what it writes commits
    with the move, and an error it raises undoes it (an ``IntegrityError``: a repeated move,
    refused as stale)."""
    try:
        with transaction.atomic(), ExitStack() as pending_until_commit:
            yield Moving(lookups.locked_match_at(public_id, move=True), pending_until_commit)
    except IntegrityError:
        raise _repeated() from None


def _seeding(action: Any) -> bool:
    return isinstance(action, dict) and action.get("type") == "seed"


def _repeated() -> StaleVersion:
    # Two submissions for the same version raced past the version check (SQLite has no row
    # locks); the unique (match, seq) constraint let only the first one in.
    return StaleVersion(_("That move was already made. Nothing was changed."))


def _move(
    locked: Match, seat: int, action: Any, version: Any, pending_until_commit: ExitStack
) -> MatchState:
    """The move in the transaction that locked the match and checked its version."""
    seeding = _seeding(action)
    if locked.kind == Match.Kind.PRIVATE and not seeding:
        _check_both_connected(locked, seat)
    before = load_state(locked)
    if seeding:
        _check_seed_version(before, version)
    try:
        rules = extras.kinds.get(locked.kind)
        if rules is not None:
            # A kind with rules of its own (a lesson: only its script's next move goes through).
            action = rules.admit(before, seat, action)
        after = apply(before, seat, action)
    except IllegalAction as refused:
        raise IllegalMove(refused.reason) from None
    reason = _store(locked, before, after, [(seat, action)], timezone.now())
    # A move is a sign of life: an API player who never opens a table socket is here.
    seat_active(locked, seat, locked.moved_at)
    # The subscribers render the new position in this transaction (the players' events
    # carry their views), as does the mover's answer; other threads see it once it commits.
    pending_until_commit.enter_context(pending(locked, after))
    waiting = getattr(locked, lookups.WAITING_READ)
    outbox.announce(locked, reason, after.to_act, fresh_seats=True, waiting=waiting)
    return after


def _check_seed_version(state: MatchState, version: Any) -> None:
    """A seed is for the hand being shuffled, on whatever version since it began to wait:
    the other seat's seed may have come in between, and the page need not hear of it first."""
    if not isinstance(version, int) or isinstance(version, bool):
        raise Refused(_("Every move must say which version of the table it was made on."))
    if state.phase != "shuffling":
        if version == state.version:
            return  # the engine says why no seed is wanted now
        raise StaleVersion(
            _("That hand is dealt already: your seed came too late and changed nothing.")
        )
    waited = sum(1 for seat in state.seeders if state.seeded[seat] is not None)
    if not state.version - waited <= version <= state.version:
        raise stale(version, state.version)


def _check_both_connected(match: Match, seat: int) -> None:
    """Friends at a private table play only while both are there: a move made while the
    other is away would run their clock in a game they cannot see."""
    now = timezone.now()
    for other in match.seats.all():
        if other.is_open:
            raise NotConnected(
                _("Nobody has taken the second seat yet: send your friend the invitation link.")
            )
        if is_connected(other, now):
            continue
        if other.number == seat:
            raise NotConnected(_("Your page is not connected to the table: reload it, then play."))
        raise NotConnected(
            _("%(name)s is not connected. Moves wait until both players are at the table.")
            % {"name": other.display_name}
        )


def _store(
    match: Match, before: MatchState, after: MatchState, moves: list[tuple[int, Any]], now: datetime
) -> str:
    """Store the actions ``moves`` (seat, action) that took the match from ``before`` to
    ``after``, and the row's new summary; what happened, for the announcement."""
    first = after.version - len(moves) + 1
    actions = [
        Action(match=match, seq=seq, seat=seat, payload=action)
        for seq, (seat, action) in enumerate(moves, start=first)
    ]
    reason = _record(match, before, after)
    match.moved_at = now
    if after.to_act != before.to_act or after.to_act is None or before.phase == "shuffling":
        # A new turn (or none): a draw and the discard after it are one turn; a deal begins
        # one even for the seat whose seed it waited for last.
        match.turn_began_at = None if after.to_act is None else now
    # The actions and the row together: one round trip on PostgreSQL.
    lookups.store_move(actions, match, ROW_FIELDS)
    return reason


def _record(match: Match, before: MatchState, after: MatchState) -> str:
    """Bring the row's summary fields up to date with a state just reached; what happened,
    for the announcement."""
    match.version = after.version
    match.scores = list(after.scores)
    # A hand that begins to wait for seeds is dealt at the latest SEED_WAIT from now.
    waits = after.phase == "shuffling"
    match.deal_due = (match.deal_due or timezone.now() + SEED_WAIT) if waits else None
    ended = after.last_hand is not None and before.last_hand is None
    if ended and after.last_hand is not None:
        result = after.last_hand
        HandRecord.objects.create(
            match=match,
            hand_number=result["hand_number"],
            kind=result["kind"],
            knocker_seat=result["knocker"],
            winner_seat=result["winner"],
            points=result["points"],
        )
    if after.phase == "match_over" and after.settlement is not None:
        match.status = Match.Status.FINISHED
        match.winner_seat = after.settlement["winner"]
        match.finished_at = timezone.now()
        return events.ENDED
    return events.HAND_ENDED if ended else events.MOVED


def deal_overdue(now: datetime | None = None) -> int:
    """Deal each hand whose wait for the players' seeds is over, a seed not in by then
    counting as none (docs/fairness.md), so that a client that sends none blocks nothing;
    how many. Every worker's sweep calls this; the row lock deals each hand once."""
    now = now or timezone.now()
    due = Match.objects.filter(status=Match.Status.ACTIVE, deal_due__lte=now)
    return sum(_deal_without_missing_seeds(pk, now) for pk in due.values_list("pk", flat=True))


def _deal_without_missing_seeds(pk: int, now: datetime) -> bool:
    with transaction.atomic():
        locked = lookups.locked_match(pk)
        if not locked.is_active or locked.deal_due is None or locked.deal_due > now:
            return False  # dealt meanwhile: the last seed came, or another worker dealt it
        before = load_state(locked)
        shuffling = before.phase == "shuffling"
        missing = [s for s in before.seeders if before.seeded[s] is None] if shuffling else []
        if not missing or _friends_apart(locked, now):
            # Nothing (left) to wait for; or friends at a private table, who wait for each
            # other: the wait starts again while one of them is not there.
            locked.deal_due = now + SEED_WAIT if missing else None
            lookups.save_fields(locked, ("deal_due",))
            return False
        # What a client that sends no seed of its own sends, on each missing seat's behalf.
        moves = [(seat, {"type": "seed"}) for seat in missing]
        after = before
        for seat, action in moves:
            after = apply(after, seat, action)
        reason = _store(locked, before, after, moves, now)
        with pending(locked, after):
            outbox.announce(locked, reason, after.to_act, fresh_seats=True)
    return True


def _friends_apart(match: Match, now: datetime) -> bool:
    return match.kind == Match.Kind.PRIVATE and not all(
        not seat.is_open and is_connected(seat, now) for seat in match.seats.all()
    )
