"""A move from the table page, whichever way it came: its form posted (``games.views.act``) or
the same fields sent over the table's own socket (``games.consumers``). One door, one set of
refusals: the form's checks, then ``services.submit`` (the version, the rules, the turn).

A move sent twice is made once: the second names a version the first moved past, and is
refused as stale with nothing changed, whichever way each of them came.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from games import services
from games.forms import MoveForm
from games.models import Match
from games.table_responses import OTHER_TAB
from ginsite.refusals import Refused

# The fields of a move, as the page's forms name them.
FIELDS = ("move", "card", "seed", "version")


def play(match: Match | str, seat: int, fields: Mapping[str, Any]) -> tuple[int, str] | None:
    """``seat``'s move from the page's ``fields``: None once it is made and committed, else the
    status and the message of the refusal, having changed nothing. ``match``: the match, or
    its public id (a socket's move: the match is read under the move's lock, not before)."""
    form = MoveForm(fields)
    if not form.is_valid():
        return 400, form.first_error()
    action, version = form.action(), form.cleaned_data["version"]
    try:
        if isinstance(match, Match):
            services.submit(match, seat, action, version)
        elif services.submit_as(match, lambda _locked: seat, action, version) is None:
            return 404, _("No such match.")
    except services.StaleVersion:
        # A move from a page that fell behind: most often another tab (or window) of the
        # same seat moved. Say so; the answer brings this page up to date.
        return 409, str(OTHER_TAB)
    except Refused as refused:
        return refused.status, refused.message
    return None


def socket_fields(frame: Mapping[str, Any]) -> dict[str, str]:
    """A socket frame's move fields as a form would post them: text, the rest left out (the
    form says what is missing or wrong)."""
    return {
        name: str(frame[name])
        for name in FIELDS
        if isinstance(frame.get(name), str | int) and not isinstance(frame.get(name), bool)
    }
