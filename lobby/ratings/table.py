"""Ratings at the table (through ``games.table.add_ons``): each lobby player's rating in the match's
preset beside their name, and under a finished rated match what it did to the ratings."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.models import Match, Seat
from games.table import add_ons as extras

from . import outcome
from .glicko import display
from .models import Abort, RatedMatch, RatingChange
from .reads import display_of_many
from .results import DAILY_CAP


def _players(match: Match) -> dict[int, Any]:
    """Seat number -> the seat, for the seats held by accounts."""
    return {
        s.number: s
        for s in match.seats.all()
        if s.kind == Seat.Kind.PLAYER and s.user_id is not None
    }


def seat_notes(match: Match) -> dict[int, str]:
    """Each player's rating in the preset: as it stands, or once the match was rated, as the
    match left it."""
    if match.kind != Match.Kind.LOBBY:
        return {}
    players = _players(match)
    preset = match.rules.get("name", "standard")
    # A rated match's changes are written when it ends: one in play has none yet.
    changes = RatingChange.objects.filter(match=match) if not match.is_active else ()
    before = {c.user_id: c for c in changes}
    shown = display_of_many([s.user_id for s in players.values()], preset)
    notes = {}
    for number, seat in players.items():
        change = before.get(seat.user_id)
        # Once rated, the rating it left: the same figure, written the same way ("1662?" while
        # provisional), as the result line's "now" and the profile (issue 41).
        notes[number] = display(change.after, change.rd_after) if change else shown[seat.user_id]
    return notes


def result_lines(match: Match, reader: int | None) -> list[str]:
    """What a finished rated lobby match did to the ratings, for ``reader`` (a seat, or None
    for a watcher)."""
    if match.kind != Match.Kind.LOBBY:
        return []
    rated = RatedMatch.objects.filter(match=match).first()
    if rated is None:
        return []
    if rated.outcome == RatedMatch.Outcome.ABORTED:
        return _aborted_lines(match, reader)
    if rated.outcome == RatedMatch.Outcome.CAPPED:
        return [
            _(
                "Played casual: these two players had played %(n)s rated matches against "
                "each other in the last 24 hours."
            )
            % {"n": DAILY_CAP}
        ]
    if rated.outcome != RatedMatch.Outcome.RATED:
        return []
    players = _players(match)
    changes = {c.user_id: c for c in RatingChange.objects.filter(match=match)}
    lines = []
    for number in sorted(players, key=lambda n: n != reader):
        seat = players[number]
        change = changes.get(seat.user_id)
        if change is None:
            continue
        values = {
            "name": seat.display_name,
            "rating": display(change.after, change.rd_after),
            "change": _shown(change),
        }
        if number == reader:
            lines.append(_("Rating change: %(change)s, now %(rating)s.") % values)
        else:
            lines.append(_("%(name)s: %(change)s, now %(rating)s.") % values)
    return lines


def _shown(change: RatingChange) -> str:
    """The change as the result line shows it: "+8", or "+8 (limited: ...)" with why."""
    if change.limited != RatingChange.Limit.NEW_ACCOUNTS:
        return change.signed
    return _("%(change)s (limited: wins against new accounts)") % {"change": change.signed}


def _aborted_lines(match: Match, reader: int | None) -> list[str]:
    """Why an aborted match was not rated, and whose abort it counts as (``aborts``)."""
    lines = [_("Aborted before the first hand was over: not rated.")]
    abort = Abort.objects.filter(match=match).first()
    quitter = next(
        (s for s in _players(match).values() if abort and s.user_id == abort.user_id), None
    )
    if quitter is not None and quitter.number == reader:
        lines.append(
            _(
                "It counts as an abort of yours: from the third in 24 hours, you wait a while "
                "before your next lobby match."
            )
        )
    elif quitter is not None:
        lines.append(_("It counts as an abort for %(name)s.") % {"name": quitter.display_name})
    return lines


def connect() -> None:
    outcome.connect()
    if seat_notes not in extras.seat_notes:
        extras.seat_notes.append(seat_notes)
    if result_lines not in extras.result_lines:
        extras.result_lines.append(result_lines)
