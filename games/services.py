"""The one door through which every match changes.

Views, the API, websocket consumers and Bea all call ``submit`` (or the helpers built on it).
It locks the match row, checks the version the move was made for, asks the engine to apply it,
stores the action, and only after the transaction commits tells the match's Channels group.
"""

from __future__ import annotations

import logging
import random
from collections import OrderedDict
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engine import PRESETS, IllegalAction, MatchState, Ruleset, apply, new_match
from games.engine import player_view as engine_player_view

from .models import Action, HandRecord, Match, Seat

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

log = logging.getLogger(__name__)

TARGETS = (50, 100, 150, 250)


class MoveRefused(Exception):  # noqa: N818 - reads better at call sites than MoveRefusedError
    """A request the door turns away; nothing was changed. ``status`` is the HTTP status."""

    status = 400
    code = "refused"

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class StaleVersion(MoveRefused):
    status = 409
    code = "stale_version"


class MatchClosed(MoveRefused):
    status = 409
    code = "match_closed"


class NotYourSeat(MoveRefused):
    status = 403
    code = "not_your_match"


class IllegalMove(MoveRefused):
    status = 422
    code = "illegal_move"


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
        raise MoveRefused(_("Unknown rules preset."))
    rules = PRESETS[preset]
    if target is not None:
        if target not in TARGETS:
            raise MoveRefused(_("The target must be one of 50, 100, 150 or 250."))
        rules = replace(rules, target=target)
    return rules


def create_match(
    kind: str,
    rules: Ruleset,
    seats: tuple[SeatSpec, SeatSpec],
    *,
    previous: Match | None = None,
    deck: list[str] | None = None,
) -> Match:
    """A new match with its two seats (seat 0 plays first)."""
    with transaction.atomic():
        match = Match.objects.create(
            kind=kind, rules=rules.as_dict(), first_deck=deck, previous=previous, scores=[0, 0]
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
    return match


def start_bea_match(
    user: AbstractBaseUser,
    preset: str,
    target: int,
    level: str,
    *,
    previous: Match | None = None,
    deck: list[str] | None = None,
) -> Match:
    """A match of ``user`` (seat 0) against Bea at ``level`` (seat 1)."""
    from games.ai import LEVELS

    if level not in LEVELS:
        raise MoveRefused(_("Unknown level for Bea."))
    rules = ruleset(preset, target)
    return create_match(
        Match.Kind.BEA,
        rules,
        (SeatSpec(Seat.Kind.PLAYER, user=user), SeatSpec(Seat.Kind.BEA, bea_level=level)),
        previous=previous,
        deck=deck,
    )


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


# --- Reading matches ------------------------------------------------------------------------

# Replaying a log is cheap, but a page, its partials and Bea's reply all read the same
# position; keep the latest states of recently used matches. Safe across processes because a
# cached state is only used when its version equals the version in the database.
_CACHE_SIZE = 512
_cache: OrderedDict[int, MatchState] = OrderedDict()


def _remember(match: Match, state: MatchState) -> MatchState:
    _cache[match.pk] = state
    _cache.move_to_end(match.pk)
    while len(_cache) > _CACHE_SIZE:
        _cache.popitem(last=False)
    return state


def load_state(match: Match) -> MatchState:
    """The match's current state, derived from its log."""
    cached = _cache.get(match.pk)
    # The seed too: a deleted match's primary key can be reused (SQLite, test rollbacks).
    if cached is not None and cached.version == match.version and cached.seed == match.seed:
        return cached
    state = new_match(Ruleset.from_dict(match.rules), seed=match.seed, deck=match.first_deck)
    for action in match.actions.order_by("seq"):
        state = apply(state, action.seat, action.payload)
    if state.version != match.version:
        log.error(
            "match %s: log gives version %s, row says %s", match.pk, state.version, match.version
        )
    return _remember(match, state)


def player_view(match: Match, seat: int) -> dict[str, Any]:
    """The only way a match reaches a client: the engine's view for one seat."""
    return engine_player_view(load_state(match), seat)


def seat_of(match: Match, user: AbstractBaseUser | AnonymousUser | None) -> int | None:
    """The seat ``user`` holds in ``match``, or None."""
    if user is None or not user.is_authenticated:
        return None
    for seat in match.seats.all():
        if seat.user_id == user.pk and seat.kind == Seat.Kind.PLAYER:
            return seat.number
    return None


def bea_seat(match: Match) -> Seat | None:
    for seat in match.seats.all():
        if seat.kind == Seat.Kind.BEA:
            return seat
    return None


# --- Changing matches -----------------------------------------------------------------------


def submit(match: Match, seat: int, action: Any, version: Any) -> MatchState:
    """Apply ``action`` for ``seat`` if ``version`` is still the match's version.

    Raises ``MoveRefused`` (stale or repeated version, closed match, illegal move) and then
    changes nothing. Returns the new state; the match row is refreshed in place.
    """
    if not isinstance(version, int) or isinstance(version, bool):
        raise MoveRefused(_("Every move must say which version of the table it was made on."))
    try:
        with transaction.atomic():
            locked = Match.objects.select_for_update().get(pk=match.pk)
            if not locked.is_active:
                raise MatchClosed(_("This match is over."))
            if version != locked.version:
                raise StaleVersion(
                    _(
                        "That move was made on an earlier position of the table "
                        "(version %(sent)s; it is now %(now)s). Nothing was changed."
                    )
                    % {"sent": version, "now": locked.version}
                )
            before = load_state(locked)
            try:
                after = apply(before, seat, action)
            except IllegalAction as refused:
                raise IllegalMove(refused.reason) from None
            Action.objects.create(match=locked, seq=after.version, seat=seat, payload=action)
            _record(locked, before, after)
            locked.save()
    except IntegrityError:
        # Two submissions for the same version raced past the version check (SQLite has no
        # row locks); the unique (match, seq) constraint let only the first one in.
        raise StaleVersion(_("That move was already made. Nothing was changed.")) from None
    _remember(locked, after)
    _copy_row(locked, match)
    notify_match(match)
    return after


def _record(match: Match, before: MatchState, after: MatchState) -> None:
    """Bring the row's summary fields up to date with a state just reached."""
    match.version = after.version
    match.scores = list(after.scores)
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


def _copy_row(source: Match, target: Match) -> None:
    if source is target:
        return
    for field in ("version", "scores", "status", "winner_seat", "finished_at", "updated_at"):
        setattr(target, field, getattr(source, field))


def resign(match: Match, seat: int, *, status: str = Match.Status.RESIGNED) -> None:
    """``seat`` gives up the match; the other seat wins."""
    with transaction.atomic():
        locked = Match.objects.select_for_update().get(pk=match.pk)
        if not locked.is_active:
            raise MatchClosed(_("This match is over."))
        locked.status = status
        locked.winner_seat = 1 - seat
        locked.finished_at = timezone.now()
        locked.save()
    _copy_row(locked, match)
    notify_match(match)


def abandon(match: Match, seat: int) -> None:
    """``seat`` leaves the match for a new one; it counts as lost, like a resignation."""
    resign(match, seat, status=Match.Status.ABANDONED)


def bea_to_move(match: Match) -> bool:
    """True when Bea holds the move in an active match."""
    seat = bea_seat(match)
    if seat is None or not match.is_active:
        return False
    return load_state(match).to_act == seat.number


def play_bea(match: Match) -> MatchState | None:
    """Let Bea make her move if it is hers; None when it is not (or no longer) her turn."""
    from games.ai import choose

    seat = bea_seat(match)
    if seat is None or not match.is_active:
        return None
    state = load_state(match)
    if state.to_act != seat.number:
        return None
    view = engine_player_view(state, seat.number)
    # Seeded by the match and position, so a replayed match gets the same replies.
    rng = random.Random(f"bea:{match.seed}:{state.version}")
    action = choose(view, level=seat.bea_level or "medium", rng=rng)
    try:
        return submit(match, seat.number, action, state.version)
    except StaleVersion:
        return None  # another request already moved for her


# --- Telling the watchers -----------------------------------------------------------------------


def notify_match(match: Match) -> None:
    """After the commit, tell the match's group the new version. The message carries no
    cards: each consumer renders its own seat's view."""
    group, version = match.group_name, match.version

    def send() -> None:
        layer = get_channel_layer()
        if layer is None:
            return
        try:
            async_to_sync(layer.group_send)(group, {"type": "match.updated", "version": version})
        except Exception:  # a dead channel layer must never undo a committed move
            log.exception("could not notify %s of version %s", group, version)

    transaction.on_commit(send)


# --- Statistics -----------------------------------------------------------------------------


def player_stats(user: AbstractBaseUser) -> dict[str, int]:
    """Matches played and won, hands won, gins, undercuts and the best hand score."""
    from django.db.models import F

    finished = Match.objects.filter(seats__user=user, seats__kind=Seat.Kind.PLAYER).exclude(
        status=Match.Status.ACTIVE
    )
    won = Match.objects.filter(
        seats__user=user, seats__kind=Seat.Kind.PLAYER, seats__number=F("winner_seat")
    ).exclude(status=Match.Status.ACTIVE)
    hands = HandRecord.objects.filter(
        match__seats__user=user,
        match__seats__kind=Seat.Kind.PLAYER,
        match__seats__number=F("winner_seat"),
    )
    return {
        "matches_played": finished.distinct().count(),
        "matches_won": won.distinct().count(),
        "hands_won": hands.count(),
        "gins": hands.filter(kind__in=["gin", "big_gin"]).count(),
        "undercuts": hands.filter(kind="undercut").count(),
        "best_hand": hands.aggregate(best=Max("points"))["best"] or 0,
    }
