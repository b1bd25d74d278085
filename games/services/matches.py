"""Making matches: the rules they are played by, their seats, and one running match against
Bea at a time."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import events, lookups, outbox
from games.engine import PRESETS, MatchState, Ruleset
from games.live.presence import in_lobby_match
from games.models import Match, Seat
from games.state_cache import first_state, pending
from ginsite.lib.refusals import Refused

from .checks import CURRENT
from .endings import abandon
from .moves import SEED_WAIT
from .refusals import AlreadyPlaying, BeaMatchRunning, MatchClosed

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

TARGETS = (50, 100, 150, 250)


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


def lock_players(user_ids: Iterable[int], *, skip_locked: bool = False) -> set[int]:
    """Lock these players' account rows until the transaction ends, always in the order of
    their ids; the players whose rows are held.

    Whatever may seat a player in a lobby match (accepting a challenge or a seek, a rematch)
    takes these locks first, before it touches any challenge, seek or match row. Two changes
    that involve one player then queue on that player's row, and the second one sees what the
    first did, instead of each holding a row the other needs (PostgreSQL's "deadlock
    detected") or both seating the player. FOR NO KEY UPDATE: rows that merely point at a
    player (a new challenge, an event, a seat) are not held up by it. ``skip_locked``: only
    the rows nobody else holds, without waiting for the others (quick pairing's passes leave
    those pairs for later; never waiting, they cannot deadlock whatever the order). SQLite
    has no row locks and needs none: its transactions here take the write lock when they
    begin, so there every player is held."""
    ids = sorted(set(user_ids))
    if not ids or connection.vendor != "postgresql":
        return set(ids)
    return lookups.lock_players(ids, skip_locked=skip_locked)


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
    days_per_move: int | None = None,
) -> Match:
    """A new match with its two seats (seat 0 plays first). A lobby match refuses a player
    who is still in another one (``AlreadyPlaying``). ``hints``: both players agreed that
    either may ask what Bea would do. ``seed``: the later hands' shuffle, for a lesson whose
    second deal is part of its script (otherwise a new secret one); ``fair``: the scheme
    that deals its hands (``games.engine.fair``), the seeded deal unless said otherwise.
    ``days_per_move``: a correspondence match (lobby only; ``games.live.correspondence``), which
    a player in a live match may start too."""
    if days_per_move is not None and kind != Match.Kind.LOBBY:
        raise Refused(_("Only lobby matches are played by correspondence."))
    with transaction.atomic():
        if kind == Match.Kind.LOBBY and days_per_move is None:
            players = [spec.user.pk for spec in seats if spec.user is not None]
            lock_players(players)
            if in_lobby_match(players):
                raise AlreadyPlaying(
                    _("One of the players is in another lobby match. Finish it first.")
                )
        match = Match(
            kind=kind,
            rules=rules.as_dict(),
            first_deck=deck,
            previous=previous,
            scores=[0, 0],
            table_id=table_id,
            hints=hints,
            days_per_move=days_per_move,
            **({"seed": seed} if seed is not None else {}),
            **({"fair": fair} if fair is not None else {}),
        )
        first = _first_turn(match)
        lookups.insert(match)
        _seat_and_announce(match, seats, first)
    return match


def _seat_and_announce(match: Match, seats: tuple[SeatSpec, SeatSpec], first: MatchState) -> None:
    """The new match's seats, and its start announced (in its transaction)."""
    created = [
        Seat(
            match=match,
            number=number,
            kind=spec.kind,
            user=spec.user,
            name=spec.name,
            bea_level=spec.bea_level,
            guest_key_hash=spec.guest_key_hash,
        )
        for number, spec in enumerate(seats)
    ]
    lookups.insert(*created)
    # The match as the subscribers need it, read from nowhere (its seats, no offers yet, its
    # first state): each player's event carries their view of the new match, so that no
    # stream reads it again.
    lookups.with_seats(match, created)
    setattr(match, lookups.OFFERS_READ, [])
    with pending(match, first):
        outbox.announce(match, events.STARTED, first.to_act, fresh_seats=True)
    # The caller's match reads them as they will be, not as they were at its start.
    lookups.forget_seats(match)
    delattr(match, lookups.OFFERS_READ)


def _first_turn(match: Match) -> MatchState:
    """Who acts first, from the deal itself (which the subscribers render the players' views
    from, and the shared cache keeps once the match commits): the hand waits for the players'
    seeds until ``deal_due``, or someone's turn begins now."""
    first = first_state(match)
    if first.phase == "shuffling":
        match.deal_due = timezone.now() + SEED_WAIT
    elif first.to_act is not None:
        match.turn_began_at = timezone.now()
    return first


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
    made, before anything changes (the callers' limits, ``games.bea.limits``; it may refuse)."""
    from games.ai import LEVELS

    if level not in LEVELS:
        raise Refused(_("Unknown level for Bea."))
    rules = ruleset(preset, target)
    with transaction.atomic():
        # One at a time holds only if two starts of one player take turns: the second must
        # see the first's match (12 at once left 8 running, issue 39).
        lock_players([user.pk])
        running = running_bea_match(user)
        if running is not None and not replace_running:
            raise BeaMatchRunning(running)
        if admit is not None:
            admit()
        if running is not None:
            seat = next(s.number for s in running.seats.all() if s.user_id == user.pk)
            # The player asked for this whatever Bea did meanwhile: it goes at its version now.
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
