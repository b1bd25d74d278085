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
from games.engine import spectator_view as engine_spectator_view

from .models import Action, HandRecord, Match, Offer, Seat

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


class NotConnected(MoveRefused):
    """At a private table both players must be connected for either to move."""

    status = 409
    code = "not_connected"


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
    table_id: int | None = None,
) -> Match:
    """A new match with its two seats (seat 0 plays first)."""
    with transaction.atomic():
        match = Match.objects.create(
            kind=kind,
            rules=rules.as_dict(),
            first_deck=deck,
            previous=previous,
            scores=[0, 0],
            table_id=table_id,
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


def spectator_view(match: Match) -> dict[str, Any]:
    """What a watcher may see: public information only (the engine's spectator view)."""
    return engine_spectator_view(load_state(match))


def is_live(match: Match) -> bool:
    """A match between two signed-in people, or at a private table (whose guests need no
    account): presence, offers and the socket apply."""
    if match.kind == Match.Kind.PRIVATE:
        return True
    seats = list(match.seats.all())
    return len(seats) == 2 and all(
        s.kind == Seat.Kind.PLAYER and s.user_id is not None for s in seats
    )


def can_watch(match: Match, user: AbstractBaseUser | AnonymousUser | None) -> bool:
    """Anyone signed in may watch a lobby match; a private table only if its host allowed
    watchers (then anyone with the link, account or not); a match against Bea is only for
    the people in it."""
    if match.kind == Match.Kind.PRIVATE:
        return match.table is not None and match.table.allow_spectators
    return bool(user is not None and user.is_authenticated and match.kind == Match.Kind.LOBBY)


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
            if locked.kind == Match.Kind.PRIVATE:
                _check_both_connected(locked, seat)
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


def _check_both_connected(match: Match, seat: int) -> None:
    """Friends at a private table play only while both are there: a move made while the
    other is away would run their clock in a game they cannot see."""
    now = timezone.now()
    for other in Seat.objects.filter(match=match).order_by("number"):
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
    _withdraw_open_offers(match, Offer.Kind.RESTART)
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


# --- Live play: presence ---------------------------------------------------------------------

# Each open socket of a seat touches ``last_seen`` this often; a seat whose socket has not been
# heard of for STALE_AFTER counts as away even if its close never arrived (a killed process).
HEARTBEAT_SECONDS = 10
STALE_AFTER_SECONDS = 30
# How long the player to move may be away before the other may claim the win.
CLAIM_AFTER_SECONDS = 60


def seat_connected(match_pk: int, number: int) -> None:
    """A socket of this seat opened: count it and tell the table."""
    from django.db.models import F

    Seat.objects.filter(match_id=match_pk, number=number).update(
        connections=F("connections") + 1, last_seen=timezone.now()
    )
    _notify_pk(match_pk)


def seat_heartbeat(match_pk: int, number: int) -> None:
    Seat.objects.filter(match_id=match_pk, number=number).update(last_seen=timezone.now())


def seat_disconnected(match_pk: int, number: int) -> None:
    """A socket of this seat closed: it no longer counts, and the table hears of it."""
    from django.db.models import F, Value
    from django.db.models.functions import Greatest

    Seat.objects.filter(match_id=match_pk, number=number).update(
        connections=Greatest(F("connections") - 1, Value(0)), last_seen=timezone.now()
    )
    _notify_pk(match_pk)


def is_connected(seat: Seat, now: Any = None) -> bool:
    now = now or timezone.now()
    return (
        seat.connections > 0
        and seat.last_seen is not None
        and (now - seat.last_seen).total_seconds() < STALE_AFTER_SECONDS
    )


def away_seconds(match: Match, seat: Seat, now: Any = None) -> float:
    """How long ``seat`` has been away (0 while connected); a seat never seen is away since
    the match began."""
    now = now or timezone.now()
    if is_connected(seat, now):
        return 0.0
    since = seat.last_seen or match.created_at
    return max(0.0, (now - since).total_seconds())


def claimable(match: Match, seat: int, now: Any = None) -> bool:
    """May ``seat`` claim the win? Only in a live match in progress whose player to move,
    the other seat, has been away longer than CLAIM_AFTER_SECONDS."""
    if not match.is_active or not is_live(match):
        return False
    # Friends at a private table wait for each other: the seed promises that a player can
    # come back after a break by reopening the link.
    if match.kind == Match.Kind.PRIVATE:
        return False
    if load_state(match).to_act != 1 - seat:
        return False
    other = next(s for s in match.seats.all() if s.number == 1 - seat)
    return away_seconds(match, other, now) > CLAIM_AFTER_SECONDS


def claim_win(match: Match, seat: int, version: Any) -> None:
    """``seat`` wins because the player to move stayed away; refused unless ``claimable``."""
    with transaction.atomic():
        locked = _lock_for(match, version)
        if not claimable(locked, seat):
            raise IllegalMove(
                _("You can claim the win only while your opponent is away in their turn.")
            )
        locked.status = Match.Status.TIMED_OUT
        locked.winner_seat = seat
        locked.finished_at = timezone.now()
        locked.save()
    _copy_row(locked, match)
    _withdraw_open_offers(match, Offer.Kind.RESTART)
    notify_match(match)


def _lock_for(match: Match, version: Any, *, active: bool = True) -> Match:
    """The match row, locked, after the checks every state-changing request passes: it names
    the version it was made on, that is still the version, and (``active``) the match runs."""
    if not isinstance(version, int) or isinstance(version, bool):
        raise MoveRefused(_("Every request must say which version of the table it was made on."))
    locked = Match.objects.select_for_update().prefetch_related("seats__user").get(pk=match.pk)
    if active and not locked.is_active:
        raise MatchClosed(_("This match is over."))
    if version != locked.version:
        raise StaleVersion(
            _(
                "That was sent from an earlier position of the table "
                "(version %(sent)s; it is now %(now)s). Nothing was changed."
            )
            % {"sent": version, "now": locked.version}
        )
    return locked


# --- Live play: rematch and restart offers ----------------------------------------------------


def pending_offer(match: Match) -> Offer | None:
    return match.offers.filter(status=Offer.Status.PENDING).first()


def make_offer(match: Match, seat: int, kind: str, version: Any) -> Offer:
    """``seat`` proposes a rematch (after the match) or a restart (during it)."""
    if kind not in Offer.Kind.values:
        raise MoveRefused(_("There is no such offer."))
    try:
        with transaction.atomic():
            locked = _lock_for(match, version, active=kind == Offer.Kind.RESTART)
            if not is_live(locked) or any(s.is_open for s in locked.seats.all()):
                raise MoveRefused(_("Offers are for matches between two players."))
            if kind == Offer.Kind.REMATCH and locked.is_active:
                raise MoveRefused(_("A rematch can be offered once the match is over."))
            if locked.offers.filter(status=Offer.Status.ACCEPTED).exists():
                raise MatchClosed(_("A new match has already started from this one."))
            if locked.offers.filter(status=Offer.Status.PENDING).exists():
                raise StaleVersion(_("An offer is already waiting for an answer."))
            offer = Offer.objects.create(match=locked, kind=kind, from_seat=seat)
    except IntegrityError:
        # Two offers raced past the check (SQLite); the partial unique index kept one.
        raise StaleVersion(_("An offer is already waiting for an answer.")) from None
    notify_match(match)
    return offer


def answer_offer(match: Match, seat: int, offer_id: Any, answer: str, version: Any) -> Match | None:
    """``answer`` is ``accept`` or ``decline`` (the other seat) or ``withdraw`` (the offerer).
    Accepting starts the new match and returns it; both pages follow it there."""
    if answer not in ("accept", "decline", "withdraw"):
        raise MoveRefused(_("Answer accept, decline or withdraw."))
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
    _copy_row(locked, match)
    notify_match(match)
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
    )


def restart_local(match: Match, version: Any) -> Match:
    """Pass-and-play: the players at the device confirmed a new round; it replaces the match
    (which then counts for nobody), with the same players and rules."""
    with transaction.atomic():
        locked = _lock_for(match, version)
        if locked.kind != Match.Kind.LOCAL:
            raise MoveRefused(_("Only a match on one device restarts without an offer."))
        new = _follow_up(locked, Offer.Kind.RESTART)
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


def live_state(match: Match, seat: int | None) -> dict[str, Any] | None:
    """What the live parts of a table show (no cards): who is connected, whether the win may
    be claimed, the open offer, the last answer, and the match that follows this one."""
    if not is_live(match):
        return None
    now = timezone.now()
    seats = {s.number: s for s in match.seats.all()}
    offers = list(match.offers.order_by("-pk")[:2])
    latest = offers[0] if offers else None
    follow = next((o.result for o in offers if o.result_id is not None), None)
    state: dict[str, Any] = {
        "connected": [is_connected(seats[n], now) for n in (0, 1)],
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
            state["answered"] = {**data, "status": latest.status}
    if seat is not None:
        state["claimable"] = claimable(match, seat, now)
    return state


def table_view(match: Match, seat: int) -> dict[str, Any]:
    """One seat's player_view plus the live state of the table (presence, offers)."""
    view = player_view(match, seat)
    view["live"] = live_state(match, seat)
    return view


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
        try:
            # API clients hear of it on their numbered event streams (no cards stored).
            from lobby.events import match_updated

            match_updated(match)
        except Exception:
            log.exception("could not record the event for %s", group)

    transaction.on_commit(send)


def _notify_pk(match_pk: int) -> None:
    match = Match.objects.filter(pk=match_pk).only("public_id", "version").first()
    if match is not None:
        notify_match(match)


# --- Statistics -----------------------------------------------------------------------------


def player_stats(user: AbstractBaseUser) -> dict[str, int]:
    """Matches played and won, hands won, gins, undercuts and the best hand score."""
    from django.db.models import F

    # A restarted match was replaced by agreement: it counts for nobody.
    unplayed = (Match.Status.ACTIVE, Match.Status.RESTARTED)
    finished = Match.objects.filter(seats__user=user, seats__kind=Seat.Kind.PLAYER).exclude(
        status__in=unplayed
    )
    won = Match.objects.filter(
        seats__user=user, seats__kind=Seat.Kind.PLAYER, seats__number=F("winner_seat")
    ).exclude(status__in=unplayed)
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
