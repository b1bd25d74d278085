"""The one door through which every match changes.

Views, the API, websocket consumers and Bea all call in here. Every change locks the match
row, checks the version the request was made for, asks the engine (or the rules of live
play) whether it may happen, stores it, and announces it (``games.events``): the
announcement reaches the subscribers only after the transaction commits, carrying ids and
versions, never a card. Reading a match is ``games.readers``; its cached state
``games.state_cache``; who is at a table ``games.presence``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engine import PRESETS, IllegalAction, MatchState, Ruleset, apply
from ginsite import rows
from ginsite.refusals import Refused

from . import events, lookups, outbox
from .lesson import script as lesson_script
from .models import Action, HandRecord, Match, Offer, Seat
from .move_clock import claimable
from .presence import in_lobby_match, is_connected, is_live, seat_active
from .state_cache import SEED_WAIT_SECONDS, first_state, load_state, pending

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

TARGETS = (50, 100, 150, 250)
SEED_WAIT = timedelta(seconds=SEED_WAIT_SECONDS)
# The version of a change the door decides itself (never a client's): whatever the match is at.
CURRENT = object()

# --- Its refusals: kinds of ginsite.refusals.Refused, each with its own code ------------------


class StaleVersion(Refused, status=409, code="stale_version"): ...


class MatchClosed(Refused, status=409, code="match_closed"): ...


class NotYourSeat(Refused, status=403, code="not_your_match"): ...


class IllegalMove(Refused, status=422, code="illegal_move"): ...


class NotConnected(Refused, status=409, code="not_connected"):
    """At a private table both players must be connected for either to move."""


class AlreadyPlaying(Refused, status=409, code="already_playing"):
    """A lobby match for a player who is in another one that is still going."""


class BeaMatchRunning(Refused, status=409, code="bea_match_running"):
    """A new match against Bea while one is running: the caller asks before replacing it."""

    def __init__(self, running: Match):
        super().__init__(
            _(
                "Your match %(id)s against Bea is still running: finish it, or start again "
                "and abandon it."
            )
            % {"id": running.public_id}
        )
        self.running = running


# --- Creating matches -------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatSpec:
    kind: str
    user: Any = None
    name: str = ""
    bea_level: str = ""
    guest_key_hash: str = ""


def ruleset(preset: str, target: int | None = None) -> Ruleset:
    """A preset, optionally with its own target; refuses unknown names and targets."""
    if preset not in PRESETS:
        raise Refused(_("Unknown rules preset."))
    rules = PRESETS[preset]
    if target is not None:
        if target not in TARGETS:
            raise Refused(_("The target must be one of 50, 100, 150 or 250."))
        rules = replace(rules, target=target)
    return rules


def lock_players(user_ids: Iterable[int]) -> None:
    """Lock these players' account rows until the transaction ends, always in the order of
    their ids.

    Whatever may seat a player in a lobby match (accepting a challenge or a seek, a rematch)
    takes these locks first, before it touches any challenge, seek or match row. Two changes
    that involve one player then queue on that player's row, and the second one sees what the
    first did, instead of each holding a row the other needs (PostgreSQL's "deadlock
    detected") or both seating the player. FOR NO KEY UPDATE: rows that merely point at a
    player (a new challenge, an event, a seat) are not held up by it. SQLite has no row locks
    and needs none: its transactions here take the write lock when they begin."""
    ids = sorted(set(user_ids))
    if ids:
        list(
            get_user_model()
            .objects.select_for_update(no_key=True)
            .filter(pk__in=ids)
            .order_by("pk")
            .values_list("pk", flat=True)
        )


def create_match(
    kind: str,
    rules: Ruleset,
    seats: tuple[SeatSpec, SeatSpec],
    *,
    previous: Match | None = None,
    deck: list[str] | None = None,
    table_id: int | None = None,
    hints: bool = False,
    seed: str | None = None,
    fair: int | None = None,
) -> Match:
    """A new match with its two seats (seat 0 plays first). A lobby match refuses a player
    who is still in another one (``AlreadyPlaying``). ``hints``: both players agreed that
    either may ask what Bea would do. ``seed``: the later hands' shuffle, for a lesson whose
    second deal is part of its script (otherwise a new secret one); ``fair``: the scheme
    that deals its hands (``games.engine.fair``), the seeded deal unless said otherwise."""
    with transaction.atomic():
        if kind == Match.Kind.LOBBY:
            players = [spec.user.pk for spec in seats if spec.user is not None]
            lock_players(players)
            if in_lobby_match(players):
                raise AlreadyPlaying(
                    _("One of the players is in another lobby match. Finish it first.")
                )
        match = Match.objects.create(
            kind=kind,
            rules=rules.as_dict(),
            first_deck=deck,
            previous=previous,
            scores=[0, 0],
            table_id=table_id,
            hints=hints,
            **({"seed": seed} if seed is not None else {}),
            **({"fair": fair} if fair is not None else {}),
        )
        for number, spec in enumerate(seats):
            Seat.objects.create(
                match=match,
                number=number,
                kind=spec.kind,
                user=spec.user,
                name=spec.name,
                bea_level=spec.bea_level,
                guest_key_hash=spec.guest_key_hash,
            )
        # Who acts first, from the deal itself: nothing is cached before the match is used.
        first = first_state(match)
        if first.phase == "shuffling":
            match.deal_due = timezone.now() + SEED_WAIT
            match.save(update_fields=["deal_due"])
        outbox.announce(match, events.STARTED, first.to_act)
    return match


def running_bea_match(user: AbstractBaseUser) -> Match | None:
    """The user's match against Bea that is still in progress, if any (the newest)."""
    return (
        Match.objects.filter(
            kind=Match.Kind.BEA,
            status=Match.Status.ACTIVE,
            seats__user=user,
            seats__kind=Seat.Kind.PLAYER,
        )
        .order_by("-updated_at")
        .first()
    )


def start_bea_match(
    user: AbstractBaseUser,
    preset: str,
    target: int,
    level: str,
    *,
    replace_running: bool = False,
    previous: Match | None = None,
    deck: list[str] | None = None,
    admit: Callable[[], None] | None = None,
) -> Match:
    """A match of ``user`` (seat 0) against Bea at ``level`` (seat 1). One at a time: with
    one still running, ``BeaMatchRunning`` unless ``replace_running``, which abandons it (it
    counts as lost) and links the new match to it. ``admit`` runs once a match is sure to be
    made, before anything changes (the callers' limits, ``games.starts``; it may refuse)."""
    from games.ai import LEVELS

    if level not in LEVELS:
        raise Refused(_("Unknown level for Bea."))
    rules = ruleset(preset, target)
    running = running_bea_match(user)
    if running is not None and not replace_running:
        raise BeaMatchRunning(running)
    if admit is not None:
        admit()
    if running is not None:
        seat = next(s.number for s in running.seats.all() if s.user_id == user.pk)
        # The player asked for this whatever Bea did meanwhile: it goes at its current version.
        with contextlib.suppress(MatchClosed):  # it ended meanwhile: nothing to abandon
            abandon(running, seat, CURRENT)
        previous = running
    return create_match(
        Match.Kind.BEA,
        rules,
        (SeatSpec(Seat.Kind.PLAYER, user=user), SeatSpec(Seat.Kind.BEA, bea_level=level)),
        previous=previous,
        deck=deck,
    )


# --- The checks every change passes -------------------------------------------------------------


def _lock_for(match: Match, version: Any, *, active: bool = True, offers: bool = False) -> Match:
    """The match row, locked, after the checks every state-changing request passes: it names
    the version it was made on, that is still the version, and (``active``) the match runs."""
    if version is not CURRENT and (not isinstance(version, int) or isinstance(version, bool)):
        raise Refused(_("Every move must say which version of the table it was made on."))
    # The seats, read under the lock (who sits where, signs of life); their accounts are
    # read only where a name is needed (a private table), not for every move.
    locked = lookups.locked_match(match.pk, offers=offers)
    if active and not locked.is_active:
        raise MatchClosed(_("This match is over."))
    if version is not CURRENT and version != locked.version:
        raise _stale(version, locked.version)
    return locked


def _stale(sent: int, now: int) -> StaleVersion:
    return StaleVersion(
        _(
            "That move was made on an earlier position of the table "
            "(version %(sent)s; it is now %(now)s). Nothing was changed."
        )
        % {"sent": sent, "now": now}
    )


# What a change of a match alters in its row (the rest is fixed when the match is made).
_ROW_FIELDS = (
    "version",
    "scores",
    "status",
    "winner_seat",
    "finished_at",
    "updated_at",
    "moved_at",
    "deal_due",
)


def _copy_row(source: Match, target: Match) -> None:
    """Bring the caller's instance up to date with the row the door just saved."""
    if source is target:
        return
    for field in _ROW_FIELDS:
        setattr(target, field, getattr(source, field))


# --- Moves ----------------------------------------------------------------------------------------


def submit(match: Match, seat: int, action: Any, version: Any) -> MatchState:
    """Apply ``action`` for ``seat`` if ``version`` is still the match's version.

    Raises ``Refused`` (stale or repeated version, closed match, illegal move) and then
    changes nothing. Returns the new state; the match row is refreshed in place.
    """
    seeding = isinstance(action, dict) and action.get("type") == "seed"
    try:
        with transaction.atomic():
            # The offers are read once for the two players' views and the answer (a move
            # changes no offer).
            locked = _lock_for(match, CURRENT if seeding else version, offers=True)
            if locked.kind == Match.Kind.PRIVATE and not seeding:
                _check_both_connected(locked, seat)
            before = load_state(locked)
            if seeding:
                _check_seed_version(before, version)
            try:
                if locked.kind == Match.Kind.LESSON:
                    # A lesson's story is scripted: only its next move goes through.
                    action = lesson_script.admit(before, seat, action)
                after = apply(before, seat, action)
            except IllegalAction as refused:
                raise IllegalMove(refused.reason) from None
            reason = _store(locked, before, after, [(seat, action)], timezone.now())
            # A move is a sign of life: an API player who never opens a table socket is here.
            seat_active(locked, seat, locked.moved_at)
            # The subscribers render the new position in this transaction (the players'
            # events carry their views); other threads see it once it commits.
            with pending(locked, after):
                outbox.announce(locked, reason, after.to_act, fresh_seats=True)
    except IntegrityError:
        # Two submissions for the same version raced past the version check (SQLite has no
        # row locks); the unique (match, seq) constraint let only the first one in.
        raise StaleVersion(_("That move was already made. Nothing was changed.")) from None
    _copy_row(locked, match)
    # The answer's view reads the offers from the caller's instance.
    setattr(match, lookups.OFFERS_READ, getattr(locked, lookups.OFFERS_READ))
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
        raise _stale(version, state.version)


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
    for seq, (seat, action) in enumerate(moves, start=first):
        rows.insert(Action(match=match, seq=seq, seat=seat, payload=action))
    reason = _record(match, before, after)
    match.moved_at = now
    rows.update(match, _ROW_FIELDS)
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
            rows.update(locked, ("deal_due",))
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


def _end(match: Match, seat: int, version: Any, status: str, winner: int) -> None:
    """End a running match some other way than by play (resigned, abandoned, won on time)."""
    with transaction.atomic():
        locked = _lock_for(match, version)
        if status == Match.Status.TIMED_OUT and not claimable(locked, seat):
            raise IllegalMove(
                _("You can claim the win only while your opponent is away in their turn.")
            )
        locked.status = status
        locked.winner_seat = winner
        locked.finished_at = timezone.now()
        locked.save()
        _withdraw_open_offers(locked, Offer.Kind.RESTART)
        outbox.announce(locked, events.ENDED, fresh_seats=True)
    _copy_row(locked, match)


def resign(match: Match, seat: int, version: Any) -> None:
    """``seat`` gives up the match; the other seat wins."""
    _end(match, seat, version, Match.Status.RESIGNED, 1 - seat)


def abandon(match: Match, seat: int, version: Any) -> None:
    """``seat`` leaves the match for a new one; it counts as lost, like a resignation."""
    _end(match, seat, version, Match.Status.ABANDONED, 1 - seat)


def claim_win(match: Match, seat: int, version: Any) -> None:
    """``seat`` wins because the player to move stayed away; refused unless ``claimable``."""
    _end(match, seat, version, Match.Status.TIMED_OUT, seat)


# --- Live play: rematch and restart offers ----------------------------------------------------


def make_offer(match: Match, seat: int, kind: str, version: Any) -> Offer:
    """``seat`` proposes a rematch (after the match) or a restart (during it)."""
    if kind not in Offer.Kind.values:
        raise Refused(_("There is no such offer."))
    try:
        with transaction.atomic():
            locked = _lock_for(match, version, active=kind == Offer.Kind.RESTART)
            if not is_live(locked) or any(s.is_open for s in locked.seats.all()):
                raise Refused(_("Offers are for matches between two players."))
            if kind == Offer.Kind.REMATCH and locked.is_active:
                raise Refused(_("A rematch can be offered once the match is over."))
            if locked.offers.filter(status=Offer.Status.ACCEPTED).exists():
                raise MatchClosed(_("A new match has already started from this one."))
            if locked.offers.filter(status=Offer.Status.PENDING).exists():
                raise StaleVersion(_("An offer is already waiting for an answer."))
            offer = Offer.objects.create(match=locked, kind=kind, from_seat=seat)
            outbox.announce(locked, events.OFFERED, fresh_seats=True)
    except IntegrityError:
        # Two offers raced past the check (SQLite); the partial unique index kept one.
        raise StaleVersion(_("An offer is already waiting for an answer.")) from None
    return offer


def answer_offer(match: Match, seat: int, offer_id: Any, answer: str, version: Any) -> Match | None:
    """``answer`` is ``accept`` or ``decline`` (the other seat) or ``withdraw`` (the offerer).
    Accepting starts the new match and returns it; both pages follow it there."""
    if answer not in ("accept", "decline", "withdraw"):
        raise Refused(_("Answer accept, decline or withdraw."))
    new: Match | None = None
    with transaction.atomic():
        locked = _lock_for(match, version, active=False)
        offer = locked.offers.select_for_update().filter(pk=_int_or_none(offer_id)).first()
        if offer is None or offer.status != Offer.Status.PENDING:
            raise StaleVersion(_("That offer is no longer open. Nothing was changed."))
        if (answer == "withdraw") != (offer.from_seat == seat):
            raise NotYourSeat(
                _("Only the other player can answer an offer; you can withdraw your own.")
            )
        if offer.kind == Offer.Kind.RESTART and not locked.is_active:
            raise MatchClosed(_("This match is over."))
        offer.answered_at = timezone.now()
        if answer == "accept":
            new = _follow_up(locked, offer.kind)
            offer.status, offer.result = Offer.Status.ACCEPTED, new
        else:
            offer.status = Offer.Status.DECLINED if answer == "decline" else Offer.Status.WITHDRAWN
        offer.save()
        restarted = answer == "accept" and offer.kind == Offer.Kind.RESTART
        outbox.announce(locked, events.ENDED if restarted else events.OFFERED, fresh_seats=True)
    _copy_row(locked, match)
    return new


def _follow_up(match: Match, kind: str) -> Match:
    """The match an accepted offer starts: same rules; a rematch swaps who plays first, a
    restart replaces the match (which then counts for nobody)."""
    seats = sorted(match.seats.all(), key=lambda s: s.number)
    if kind == Offer.Kind.REMATCH:
        seats.reverse()
    else:
        match.status = Match.Status.RESTARTED
        match.finished_at = timezone.now()
        match.save()
    # Each seat keeps its holder: an account, or a guest's name and seat-key hash.
    specs = (
        SeatSpec(s.kind, user=s.user, name=s.name, guest_key_hash=s.guest_key_hash) for s in seats
    )
    one, two = specs
    return create_match(
        match.kind,
        Ruleset.from_dict(match.rules),
        (one, two),
        previous=match,
        table_id=match.table_id,
        hints=match.hints,
    )


def restart_local(match: Match, version: Any) -> Match:
    """Pass-and-play: the players at the device confirmed a new round; it replaces the match
    (which then counts for nobody), with the same players and rules."""
    with transaction.atomic():
        locked = _lock_for(match, version)
        if locked.kind != Match.Kind.LOCAL:
            raise Refused(_("Only a match on one device restarts without an offer."))
        new = _follow_up(locked, Offer.Kind.RESTART)
        outbox.announce(locked, events.ENDED)
    _copy_row(locked, match)
    return new


def _withdraw_open_offers(match: Match, kind: str) -> None:
    """A restart offer means nothing once the match has ended some other way."""
    match.offers.filter(status=Offer.Status.PENDING, kind=kind).update(
        status=Offer.Status.WITHDRAWN, answered_at=timezone.now()
    )


def _int_or_none(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None
