"""A move from the table page, whichever way it came: its form posted (``games.web.views.act``) or
the same fields sent over the table's own socket (``games.web.table_socket``). One door, one set of
refusals: the form's checks, then ``services.moving`` (the version, the rules, the turn).

A move sent twice is made once: the second names a version the first moved past, and is
refused as stale with nothing changed, whichever way each of them came.

The form's answer is the regions the move changed, so ``attempt`` hands back the seat's view
before the move and after it (or, refused, the view as it is), read here once each: what
answers (``games.web.responses``) renders from them and reads nothing again.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from games import services
from games.models import Match
from games.readers import view_for
from games.web.forms import MoveForm
from games.web.responses import OTHER_TAB
from ginsite.lib.refusals import NotFound, Refused

# The fields of a move, as the page's forms name them.
FIELDS = ("move", "card", "seed", "version")


def play(public_id: str, seat: int, fields: Mapping[str, Any], views: Views | None = None) -> Match:
    """``seat``'s move at the match ``public_id`` from the page's ``fields``, made and
    committed: the match as the move left it. Raises ``Refused``, having changed nothing. The
    match is read under the move's lock, not before (a socket's move reads nothing else); with
    ``views``, the seat's view is read there too, as the move found it and as it left it."""
    form = MoveForm(fields)
    if not form.is_valid():
        raise Refused(form.first_error())
    action, version = form.action(), form.cleaned_data["version"]
    try:
        with services.moving(public_id) as move:
            if move.match is None:
                raise NotFound(_("No such match."))
            if views is not None:
                views.read(move.match)  # as the move finds it
            move.make(seat, action, version)
            moved = move.match
            if views is not None:
                views.read(moved)  # as the move leaves it
    except services.StaleVersion:
        # A move from a page that fell behind: most often another tab (or window) of the
        # same seat moved. Say so; the answer brings this page up to date.
        raise services.StaleVersion(str(OTHER_TAB)) from None
    return moved


@dataclass
class Views:
    """A seat's views around its move from the page's form: what the form's answer renders."""

    seat: int
    seen: list[dict[str, Any]] = field(default_factory=list)

    def read(self, match: Match) -> None:
        """The seat's view of ``match`` now: first as the move finds it (under its lock), then
        as the move leaves it (in its transaction)."""
        self.seen.append(view_for(match, self.seat))


@dataclass(frozen=True)
class Attempt:
    """A move from the page's form, made or refused, with what its answer renders."""

    match: Match
    seat: int
    # The view the page was drawn from (only the regions that differ are sent); None after a
    # refusal: every region, so that a page that fell behind catches up.
    before: dict[str, Any] | None
    view: dict[str, Any]  # the seat's view now
    refused: Refused | None = None


def attempt(match: Match, seat: int, fields: Mapping[str, Any]) -> Attempt:
    """``play`` for the page's form, with the seat's views before and after, each read once. A
    move refused under its lock has its table as read there; a malformed one, as it is now."""
    views = Views(seat)
    try:
        moved = play(match.public_id, seat, fields, views)
    except Refused as refused:
        if not views.seen:
            views.read(match)
        return Attempt(match, seat, None, views.seen[0], refused)
    before, after = views.seen
    return Attempt(moved, seat, before, after)


def socket_fields(frame: Mapping[str, Any]) -> dict[str, str]:
    """A socket frame's move fields as a form would post them: text, the rest left out (the
    form says what is missing or wrong)."""
    return {
        name: str(frame[name])
        for name in FIELDS
        if isinstance(frame.get(name), str | int) and not isinstance(frame.get(name), bool)
    }
