"""A player reports another: the one function the page, the table's link and the API call.

The rules (docs/moderation.md, "Reports"), each a refusal that changes nothing: a verified
e-mail address; not yourself, not Bea, not a closed account; a reason from the fixed list and
a note of at most NOTE_MAX characters; a match attached must be one the two played; one open
report per reporter and reported player (a second is refused: the first is still waiting for
a moderator); at most ``REPORT_LIMIT_PER_DAY`` reports a day; and none from a player a
moderator banned from reporting. The reporter is thanked and told nothing more; the reported
player is told nothing at all.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from games.models import Match, Seat
from ginsite.lib import limits, names
from ginsite.lib.refusals import Conflict, NotAllowed, NotFound, Refused, TooMany
from lobby.accounts.emails import has_verified_email
from lobby.models import display_name_of
from lobby.moderation.sanctions.standing import may_report
from lobby.services import player_named

from .models import NOTE_MAX, Reason, Report

DAY = 24 * 60 * 60


class CannotReport(Refused, code="cannot_report"):
    """Not someone one can report: oneself, or Bea."""


class AlreadyReported(Conflict, code="already_reported"):
    """An open report of this player by this reporter is waiting for a moderator."""


def thanks() -> str:
    """What the reporter hears, and all they hear."""
    return _("Thank you. A moderator will look at your report.")


def reportable(reporter: Any, username: str) -> Any:
    """The player ``username`` names, if ``reporter`` may report them at all (whatever for)."""
    if names.key(username) in {names.key(n) for n in names.RESERVED}:
        raise CannotReport(_("Bea is the computer: there is nobody to report."))
    reported = player_named(username)
    if reported.pk == reporter.pk:
        raise CannotReport(_("You cannot report yourself."))
    if not has_verified_email(reporter.pk):
        raise NotAllowed(
            _("Reporting a player needs a verified e-mail address: add one in Settings.")
        )
    if not may_report(reporter.pk):
        raise NotAllowed(_("A moderator has stopped you from sending reports."))
    return reported


def report(
    reporter: Any, username: str, reason: str, note: str = "", match: str | None = None
) -> Report:
    """``reporter`` reports the player ``username`` for ``reason``, with a ``note`` and the
    public id of a ``match`` the two played (both optional)."""
    reported = reportable(reporter, username)
    if reason not in Reason.values:
        choices = ", ".join(Reason.values)
        raise Refused(_("Choose a reason: one of %(ids)s.") % {"ids": choices})
    note = " ".join((note or "").split())
    if len(note) > NOTE_MAX:
        raise Refused(_("Keep the note to %(n)s characters.") % {"n": NOTE_MAX})
    played = _match_between(match, reporter, reported) if match else None
    if _open_report(reporter.pk, reported.pk):
        raise _already(reported)
    retry = limits.over(f"reports:{reporter.pk}", settings.REPORT_LIMIT_PER_DAY, DAY)
    if retry is not None:
        message = _("You have sent as many reports as you may today. Try again tomorrow.")
        raise TooMany(message, retry)
    try:
        with transaction.atomic():
            return Report.objects.create(
                reporter=reporter, reported=reported, reason=reason, note=note, match=played
            )
    except IntegrityError:  # the same report sent twice at once: the other one was stored
        raise _already(reported) from None


def _open_report(reporter_id: int, reported_id: int) -> bool:
    return Report.objects.filter(
        reporter_id=reporter_id, reported_id=reported_id, status=Report.Status.OPEN
    ).exists()


def _already(reported: Any) -> AlreadyReported:
    return AlreadyReported(
        _("You have reported %(name)s already: a moderator will look at it.")
        % {"name": display_name_of(reported)}
    )


def _match_between(public_id: str, one: Any, two: Any) -> Match:
    """The match ``public_id`` if both players sat at it; else ``NotFound``."""
    found = Match.objects.filter(public_id=public_id).first()
    players = set()
    if found is not None:
        seats = Seat.objects.filter(match=found, user_id__isnull=False)
        players = set(seats.values_list("user_id", flat=True))
    if found is None or players != {one.pk, two.pk}:
        raise NotFound(
            _("That match is not one you played against %(name)s.") % {"name": display_name_of(two)}
        )
    return found
