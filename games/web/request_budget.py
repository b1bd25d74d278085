"""The pages' extra requests on the API's budget: an htmx hint request and a table socket's
``refresh`` frame each count like an API request (``ginsite.lib.limits.over_budget``), for a
signed-in player in the same count as their API requests, so neither a page nor a script
behind it can ask for more than the API would answer (issue 28: 150 hints in 2.3 s, 200
refreshes sending 1.8 MB in 1.8 s). Moves are not counted: each is its seat's turn, limited
by the game itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.http import HttpResponse
from django.utils.translation import ngettext

from games.models import Match
from games.readers import view_for
from games.table.context import table_context
from games.table.regions import render_regions
from ginsite.lib import limits

if TYPE_CHECKING:
    from django.http import HttpRequest


def ident(user: Any, otherwise: str) -> str:
    """Whose count: the account's, shared with the API; else ``otherwise`` (a guest's seat, a
    device's pass-and-play match, an anonymous watcher's address)."""
    if user is not None and user.is_authenticated:
        return limits.player_ident(user.pk)
    return f"api-rate:{otherwise}"


def message(retry: int) -> str:
    return ngettext(
        "Too many requests: wait %(seconds)d second, then try again.",
        "Too many requests: wait %(seconds)d seconds, then try again.",
        retry,
    ) % {"seconds": retry}


def refused(request: HttpRequest, match: Match, seat: int, otherwise: str) -> HttpResponse | None:
    """Count one htmx request of the page at ``match``: None within the budget, else its 429,
    the table's notice saying how long to wait (the page lets htmx swap a 429 in)."""
    retry = limits.over_budget(ident(request.user, otherwise))
    if retry is None:
        return None
    context = table_context(match, seat, view_for(match, seat), notice=message(retry))
    response = HttpResponse(render_regions(("notice",), context, request), status=429)
    response["Retry-After"] = str(retry)
    return response
