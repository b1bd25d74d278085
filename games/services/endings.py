"""A match that ends some other way than by play: resigned, abandoned, won on time."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import events, outbox
from games.live.connection import claimable
from games.models import Match, Offer

from .checks import copy_row, lock_for
from .refusals import IllegalMove


def _end(match: Match, seat: int, version: Any, status: str, winner: int | None) -> None:
    """End a running match some other way than by play (resigned, abandoned, won on time)."""
    with transaction.atomic():
        locked = lock_for(match, version)
        if status == Match.Status.TIMED_OUT and not claimable(locked, seat):
            raise IllegalMove(
                _("You can claim the win only once your opponent's time to move has run out.")
                if locked.days_per_move
                else _("You can claim the win only while your opponent is away in their turn.")
            )
        locked.status = status
        locked.winner_seat = winner
        locked.finished_at = timezone.now()
        locked.save()
        _withdraw_open_offers(locked, Offer.Kind.RESTART)
        outbox.announce(locked, events.ENDED, fresh_seats=True)
    copy_row(locked, match)


def resign(match: Match, seat: int, version: Any) -> None:
    """``seat`` gives up the match; the other seat wins."""
    _end(match, seat, version, Match.Status.RESIGNED, 1 - seat)


def abandon(match: Match, seat: int, version: Any) -> None:
    """``seat`` leaves the match for a new one; it counts as lost, like a resignation."""
    _end(match, seat, version, Match.Status.ABANDONED, 1 - seat)


def set_aside(match: Match, seat: int, version: Any) -> None:
    """``seat`` leaves a match against Bea for a person the pool found them (``lobby.playnow``):
    it ends counting for nobody, like a restarted match, and no one wins it."""
    if match.kind != Match.Kind.BEA:
        raise IllegalMove(_("Only a match against Bea can be set aside for a person."))
    _end(match, seat, version, Match.Status.RESTARTED, None)


def claim_win(match: Match, seat: int, version: Any) -> None:
    """``seat`` wins because the player to move stayed away; refused unless ``claimable``."""
    _end(match, seat, version, Match.Status.TIMED_OUT, seat)


def _withdraw_open_offers(match: Match, kind: str) -> None:
    """A restart offer means nothing once the match has ended some other way."""
    match.offers.filter(status=Offer.Status.PENDING, kind=kind).update(
        status=Offer.Status.WITHDRAWN, answered_at=timezone.now()
    )
