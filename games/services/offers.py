"""Live play's offers (a rematch after a match, a restart during it) and their answers, and
pass and play's new round: each starts the match that follows."""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import access, events, outbox
from games.engine import Ruleset
from games.live.presence import is_live
from games.models import Match, Offer
from ginsite.lib import numbers
from ginsite.lib.refusals import NotAllowed, Refused

from .checks import copy_row, lock_for
from .matches import SeatSpec, create_match
from .refusals import MatchClosed, NotYourSeat, StaleVersion


def make_offer(match: Match, seat: int, kind: str, version: Any) -> Offer:
    """``seat`` proposes a rematch (after the match) or a restart (during it)."""
    if kind not in Offer.Kind.values:
        raise Refused(_("There is no such offer."))
    try:
        with transaction.atomic():
            locked = lock_for(match, version, active=kind == Offer.Kind.RESTART)
            if not is_live(locked) or any(s.is_open for s in locked.seats.all()):
                raise Refused(_("Offers are for matches between two players."))
            _refuse_across_a_block(locked, seat)
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
        locked = lock_for(match, version, active=False)
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
            _refuse_across_a_block(locked, seat)
            new = _follow_up(locked, offer.kind)
            offer.status, offer.result = Offer.Status.ACCEPTED, new
        else:
            offer.status = Offer.Status.DECLINED if answer == "decline" else Offer.Status.WITHDRAWN
        offer.save()
        restarted = answer == "accept" and offer.kind == Offer.Kind.RESTART
        outbox.announce(locked, events.ENDED if restarted else events.OFFERED, fresh_seats=True)
    copy_row(locked, match)
    return new


def _refuse_across_a_block(match: Match, seat: int) -> None:
    """A block either way (since the match began) ends what the two may start together: an
    offer would reach the blocker (a Web Push, a notice at the table) and its acceptance make
    them a new match, which a challenge between them cannot (issue 39)."""
    if access.players_kept_apart(match):
        other = next((s for s in match.seats.all() if s.number != seat), None)
        name = other.display_name if other is not None else ""
        raise NotAllowed(_("Offers between you and %(name)s are off.") % {"name": name})


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
        days_per_move=match.days_per_move,
    )


def restart_local(match: Match, version: Any) -> Match:
    """Pass-and-play: the players at the device confirmed a new round; it replaces the match
    (which then counts for nobody), with the same players and rules."""
    with transaction.atomic():
        locked = lock_for(match, version)
        if locked.kind != Match.Kind.LOCAL:
            raise Refused(_("Only a match on one device restarts without an offer."))
        new = _follow_up(locked, Offer.Kind.RESTART)
        outbox.announce(locked, events.ENDED)
    copy_row(locked, match)
    return new


def _int_or_none(value: Any) -> int | None:
    return numbers.parse(value)
