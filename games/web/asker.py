"""Who is asking, for the site's pages: the visitor before any match (an account, or a browser
without one), and who they are at one match (``games.access``: a seat, a watcher, the owner of
a pass-and-play match, or nobody). The views that start a match ask ``visitor`` rather than
branching on ``request.user`` each; the views of a match ask ``find`` (no such match, or one
of another kind, is a 404). Only ``games.access`` reads the cookies behind it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from django.http import Http404, HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import access
from games.bea import limits as starts
from games.models import Match
from games.services import NotYourSeat

if TYPE_CHECKING:
    from django.contrib.auth.models import User


NO_SEAT = gettext_lazy("This is not your match: you hold no seat.")


@dataclass(frozen=True)
class Visitor:
    """Who sends a page's request, before any match."""

    account: User | None  # None: a browser without an account (its keys are its own)
    # Where a visitor without an account is counted from (every fresh browser is a new
    # guest); None for a signed-in player, who is counted by account.
    address: str | None

    @property
    def guest(self) -> bool:
        return self.account is None


def visitor(request: HttpRequest) -> Visitor:
    if request.user.is_authenticated:
        return Visitor(cast("User", request.user), None)
    return Visitor(None, starts.client_address(request))


def find(
    request: HttpRequest, public_id: str, kind: str | None = None, missing: str = ""
) -> access.Asker:
    """The match ``public_id`` (of ``kind``, if given) and who the sender is at it; no such
    match is a 404 (with ``missing``, else "No such match.")."""
    asker = access.find(public_id, access.of_request(request), kind=kind)
    if asker is None:
        raise Http404(missing or _("No such match."))
    return asker


def player(request: HttpRequest, public_id: str) -> tuple[Match, int]:
    """The match ``public_id`` and the seat the sender holds at it: no such match is a 404,
    no seat ``NotYourSeat`` (403)."""
    asker = find(request, public_id)
    if asker.seat is None:
        raise NotYourSeat(str(NO_SEAT))
    return asker.match, asker.seat


def seat(asker: access.Asker) -> int:
    """The seat the asker holds; none is ``NotYourSeat`` (403)."""
    if asker.seat is None:
        raise NotYourSeat(str(NO_SEAT))
    return asker.seat


def at(request: HttpRequest, match: Match) -> access.Asker:
    """Who the sender is at ``match``, a match the page found by other means (a private
    table's invitation link)."""
    return access.at(match, access.of_request(request))
