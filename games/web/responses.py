"""What the table's pages answer, shared by the views of every reader (``games.web.views``, a
private table's ``games.private.views``, pass and play's ``games.local.views``): the whole
table, a watcher's table, a refusal with the table as it really is now, the regions a move
changed, and a saved arrangement of the hand."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django_htmx.middleware import HtmxDetails

from games import access
from games.ai import hint as bea_hint
from games.models import Match
from games.readers import WATCHER, view_for
from games.table import arrange, tips
from games.table.context import table_context
from games.table.regions import REGIONS, changed_regions, render_regions
from ginsite.lib import numbers

if TYPE_CHECKING:
    from games.web.moves import Attempt


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


HINT_REGIONS = ("hint", "pile", "hand", "actions")
OTHER_TAB = gettext_lazy(
    "The table changed in another tab or window; here it is as it is now. Nothing was changed."
)


ViewFn = Callable[..., HttpResponse]


def login_or_guest_required(view: ViewFn) -> ViewFn:
    """``login_required``, except at a private table and at a guest's match against Bea,
    whose players have no account (their key decides, in ``games.access``)."""

    @functools.wraps(view)
    def wrapped(request: HtmxHttpRequest, public_id: str, *args: Any, **kw: Any) -> HttpResponse:
        if not request.user.is_authenticated and not access.open_to_guests(public_id):
            return redirect_to_login(request.get_full_path())
        return view(request, public_id, *args, **kw)

    return wrapped


def hint_for(view: dict[str, Any]) -> dict[str, Any]:
    kinds = {a["type"] for a in view["legal_actions"]}
    if kinds <= {"next_hand", "seed"}:
        return {"action": {}, "reason": _("There is nothing to decide right now.")}
    return bea_hint(view)


def table_response(
    request: HtmxHttpRequest,
    match: Match,
    seat: int,
    *,
    status: int = 200,
    notice: str = "",
    hint: bool = False,
) -> HttpResponse:
    view = view_for(match, seat)
    context = table_context(match, seat, view, hint=hint_for(view) if hint else None, notice=notice)
    context["tips"] = tips.should_show(request, match)
    response = render(request, "games/table.html", context, status=status)
    if context["tips"]:
        tips.mark_seen(response, request)  # once: the next page comes without them
    return response


def refusal(
    request: HtmxHttpRequest, match: Match, seat: int | None, status: int, message: str
) -> HttpResponse:
    """A refused request: the message, and the table as it really is now."""
    if seat is None:
        return refused_alone(request, status, message)
    view = view_for(match, seat)
    return _answer(request, match, seat, view, None, refused=True, status=status, notice=message)


def refused_alone(request: HtmxHttpRequest, status: int, message: str) -> HttpResponse:
    """A refusal with no seat to draw a table for: the message alone."""
    return render(request, "games/refused.html", {"message": message}, status=status)


def moved_response(
    request: HtmxHttpRequest, match: Match, seat: int, before: dict[str, Any] | None
) -> HttpResponse:
    """The answer to a request that went through (an offer, an answer, a claim)."""
    return _answer(request, match, seat, view_for(match, seat), before)


def move_answer(request: HtmxHttpRequest, attempt: Attempt) -> HttpResponse:
    """The answer to a move from the table's form (``games.web.moves.attempt``): the regions it
    changed, or after a refusal its message with every region as it really is now."""
    refused = attempt.refused
    return _answer(
        request,
        attempt.match,
        attempt.seat,
        attempt.view,
        attempt.before,
        refused=refused is not None,
        status=refused.status if refused is not None else 200,
        notice=refused.message if refused is not None else "",
    )


def _answer(
    request: HtmxHttpRequest,
    match: Match,
    seat: int,
    view: dict[str, Any],
    before: dict[str, Any] | None,
    *,
    refused: bool = False,
    status: int = 200,
    notice: str = "",
) -> HttpResponse:
    """The regions that changed from the page's view ``before`` to ``view`` (over htmx; every
    region with no ``before``, so that a stale page catches up with the real position), a
    redirect to the table after a move (post/redirect/get), or a refusal's ``notice`` with the
    table as it really is now (without the first match's tips: the table itself showed them)."""
    if not refused and not request.htmx:
        return redirect("games:table", match.public_id)
    context = table_context(match, seat, view, notice=notice)
    if request.htmx:
        changed = changed_regions(before, view)
        names = [n for n in REGIONS if n in changed or n == "notice"]
        html = render_regions(names, context, request)
        return HttpResponse(html, status=status)
    return render(request, "games/table.html", context, status=status)


def client_version(request: HtmxHttpRequest) -> int | None:
    """The version a form was made on; None (refused by the door as no version) for anything
    but a whole number in ASCII digits."""
    return numbers.parse(request.POST.get("version", ""))


def watch_response(request: HtmxHttpRequest, match: Match, notice: str = "") -> HttpResponse:
    """The table as a watcher sees it: public information only, and no buttons."""
    view = view_for(match, WATCHER)
    context = table_context(match, 0, view, spectator=True, notice=notice, notice_level="info")
    return render(request, "games/table.html", context)


def save_order(request: HtmxHttpRequest, match: Match, seat: int) -> HttpResponse:
    """Keep the seat's arrangement: a sort (``sort``) or a dragged order (``order``, card
    codes). Only this seat's own table ever shows it."""
    view = view_for(match, seat)
    try:
        arrange.save(match, seat, view, request.POST)
    except ValueError as refused:
        return refusal(request, match, seat, 400, str(refused))
    if not request.htmx:
        return redirect(
            reverse(
                "games:local" if match.kind == Match.Kind.LOCAL else "games:table",
                args=[match.public_id],
            )
        )
    if "order" in request.POST:
        # The page moved the card already; re-rendering the hand would only undo a drag
        # still under way.
        return HttpResponse(status=204)
    context = table_context(match, seat, view)
    return HttpResponse(render_regions(("hand",), context, request))
