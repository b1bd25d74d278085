"""The checks every change passes: the match row locked, the version the request was made on
(still the version), a match still running; and the caller's instance brought up to date."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games import lookups
from games.models import Match
from ginsite.lib.refusals import Refused

from .refusals import MatchClosed, StaleVersion

# The version of a change the door decides itself (never a client's): whatever the match is at.
CURRENT = object()


def lock_for(match: Match, version: Any, *, active: bool = True, move: bool = False) -> Match:
    """The match row, locked, after the checks every state-changing request passes: it names
    the version it was made on, that is still the version, and (``active``) the match runs."""
    # The seats, read under the lock (who sits where, signs of life), with their players'
    # names for the answer.
    return checked(lookups.locked_match(match.pk, move=move), version, active=active)


def checked(locked: Match, version: Any, *, active: bool = True) -> Match:
    """``lock_for``'s checks of a match row already locked."""
    if version is not CURRENT and (not isinstance(version, int) or isinstance(version, bool)):
        raise Refused(_("Every move must say which version of the table it was made on."))
    if active and not locked.is_active:
        raise MatchClosed(_("This match is over."))
    if version is not CURRENT and version != locked.version:
        raise stale(version, locked.version)
    return locked


def stale(sent: int, now: int) -> StaleVersion:
    return StaleVersion(
        _(
            "That move was made on an earlier position of the table "
            "(version %(sent)s; it is now %(now)s). Nothing was changed."
        )
        % {"sent": sent, "now": now}
    )


# What a change of a match alters in its row (the rest is fixed when the match is made).
ROW_FIELDS = (
    "version",
    "scores",
    "status",
    "winner_seat",
    "finished_at",
    "updated_at",
    "moved_at",
    "turn_began_at",
    "deal_due",
)


def copy_row(source: Match, target: Match) -> None:
    """Bring the caller's instance up to date with the row the door just saved, and its seats
    (with their players) as read under the lock: the answer needs no read of its own."""
    if source is target:
        return
    for field in ROW_FIELDS:
        setattr(target, field, getattr(source, field))
    lookups.with_seats(target, list(source.seats.all()))
