"""A move from the table page, whichever way it came: its form posted (``games.web.views.act``) or
the same fields sent over the table's own socket (``games.web.table_socket``). One door, one set of
refusals: the form's checks, then ``services.submit_as`` (the version, the rules, the turn).

A move sent twice is made once: the second names a version the first moved past, and is
refused as stale with nothing changed, whichever way each of them came.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from games import services
from games.models import Match
from games.web.forms import MoveForm
from games.web.responses import OTHER_TAB
from ginsite.lib.refusals import NotFound, Refused

# The fields of a move, as the page's forms name them.
FIELDS = ("move", "card", "seed", "version")


def play(public_id: str, seat: int, fields: Mapping[str, Any]) -> Match:
    """``seat``'s move at the match ``public_id`` from the page's ``fields``, made and
    committed: the match as the move left it. Raises ``Refused``, having changed nothing. The
    match is read under the move's lock, not before (a socket's move reads nothing else)."""
    form = MoveForm(fields)
    if not form.is_valid():
        raise Refused(form.first_error())
    action, version = form.action(), form.cleaned_data["version"]
    moved: list[Match] = []

    def seat_of(locked: Match) -> int:
        moved.append(locked)
        return seat

    try:
        if services.submit_as(public_id, seat_of, action, version) is None:
            raise NotFound(_("No such match."))
    except services.StaleVersion:
        # A move from a page that fell behind: most often another tab (or window) of the
        # same seat moved. Say so; the answer brings this page up to date.
        raise services.StaleVersion(str(OTHER_TAB)) from None
    return moved[0]


def socket_fields(frame: Mapping[str, Any]) -> dict[str, str]:
    """A socket frame's move fields as a form would post them: text, the rest left out (the
    form says what is missing or wrong)."""
    return {
        name: str(frame[name])
        for name in FIELDS
        if isinstance(frame.get(name), str | int) and not isinstance(frame.get(name), bool)
    }
