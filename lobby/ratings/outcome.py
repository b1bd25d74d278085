"""What a match counts for in the ratings, as the API says it (``rating`` in a match's JSON,
through ``games.table.add_ons.match_fields``): rated or casual, and when a rated match did not
change the ratings, why (docs/api.md)."""

from __future__ import annotations

import functools
from typing import Any

from django.utils.translation import gettext as _

from games.models import Match
from games.table import add_ons as extras

from .models import RatedMatch
from .results import DAILY_CAP

Outcome = RatedMatch.Outcome

# The stored outcome -> what the API says: (outcome, reason).
_SAID = {
    Outcome.PENDING: ("pending", None),
    Outcome.RATED: ("rated", None),
    Outcome.CAPPED: ("casual", "daily_cap"),
    Outcome.ABORTED: ("aborted", "ended_early"),
    Outcome.RESTARTED: ("restarted", "restarted"),
}


def said(stored: str | None) -> dict[str, Any]:
    """The ``rating`` object for a match whose ``RatedMatch`` outcome is ``stored`` (None: the
    match was never rated)."""
    if stored is None:
        return {"rated": False, "outcome": "casual", "reason": "not_rated", "message": None}
    outcome, reason = _SAID[Outcome(stored)]
    return {"rated": True, "outcome": outcome, "reason": reason, "message": message(reason)}


def message(reason: str | None) -> str | None:
    if reason == "daily_cap":
        return _(
            "Played casual: these two players had played %(n)s rated matches against "
            "each other in the last 24 hours."
        ) % {"n": DAILY_CAP}
    if reason == "ended_early":
        return _("Aborted before the first hand was over: not rated.")
    if reason == "restarted":
        return _("Restarted: the new match is rated instead.")
    return None


def match_fields(match: Match) -> dict[str, Any]:
    if match.kind != Match.Kind.LOBBY:
        # Only lobby matches are ever rated: no query for the others.
        return {"rating": said(None)}
    if match.status == Match.Status.ACTIVE:
        return {"rating": said(_while_active(match.pk, match.public_id))}
    return {"rating": said(_stored(match.pk))}


def _stored(match_id: int) -> str | None:
    stored = RatedMatch.objects.filter(match_id=match_id).values_list("outcome", flat=True)
    return stored.first()


@functools.lru_cache(maxsize=4096)
def _while_active(match_id: int, public_id: str) -> str | None:
    """What a match in progress counts for, read once per process: it is decided when the
    match starts (rated and pending, or casual: no row) and changes only with its end. Every
    answer about a match says it, so every move and read of the API asked the database again
    (issue 45). Keyed by the public id too, which no other match ever has (a test database
    may give a new match an old one's number)."""
    return _stored(match_id)


def connect() -> None:
    if match_fields not in extras.match_fields:
        extras.match_fields.append(match_fields)
