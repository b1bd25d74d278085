"""Pass and play in the browser (``games.local.play``): one shared screen, a pass screen between
turns, and a hand shown only to the player who revealed it there."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import access, services
from games.local import play as local
from games.models import Match
from games.readers import view_for
from games.table.context import table_context
from games.table.regions import render_regions, render_update
from games.web import asker as page_asker
from games.web import request_budget as budgets
from games.web.forms import MoveForm
from games.web.responses import (
    HINT_REGIONS,
    HtmxHttpRequest,
    client_version,
    hint_for,
    refusal,
    save_order,
)
from ginsite.lib.htmx import go_to
from ginsite.lib.refusals import Refused

if TYPE_CHECKING:
    pass


def _get_local_match(request: HtmxHttpRequest, public_id: str) -> Match:
    """The owner's pass-and-play match; anyone else gets a 404, as if there were none."""
    asker = page_asker.find(request, public_id, Match.Kind.LOCAL)
    if not asker.owner:
        raise Http404(_("No such match."))
    return asker.match


def _private_response(response: HttpResponse) -> HttpResponse:
    # A revealed hand must not come back from the cache (or the back button) for the next
    # player: no-store also keeps the page out of the back-forward cache.
    response["Cache-Control"] = "no-store"
    return response


@require_http_methods(["GET", "POST"])
def local_new(request: HtmxHttpRequest) -> HttpResponse:
    """Pass and play: two names and the rules, then the first pass screen."""
    form = local.LocalMatchForm(request.POST or None)
    if request.method != "POST" or not form.is_valid():
        status = 400 if request.method == "POST" else 200
        return render(request, "games/local_new.html", {"form": form}, status=status)
    data = form.cleaned_data
    key, fresh = access.owner_key(request)
    owner = page_asker.visitor(request).account
    match = local.start(owner, key, data["first"], data["second"], data["preset"], data["target"])
    response = redirect("games:local", match.public_id)
    if owner is None and fresh:
        access.keep_owner_key(response, request, key)
    return response


def _local_table(request: HtmxHttpRequest, match: Match, seat: int) -> HttpResponse:
    view = view_for(match, seat)
    context = table_context(match, seat, view)
    return _private_response(render(request, "games/table.html", context))


@require_GET
def local_table(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    """The match's one address: the pass screen for whoever is to act, their hand once they
    revealed it here at this very position, and at a hand's end the open result."""
    return _local_page(request, _get_local_match(request, public_id))


def _local_page(request: HtmxHttpRequest, match: Match) -> HttpResponse:
    follow = match.next_matches.order_by("-pk").first()
    if match.status == Match.Status.RESTARTED and follow is not None:
        return go_to(request, reverse("games:local", args=[follow.public_id]))
    seat = local.seat_shown(match)
    if seat is None:
        return _local_table(request, match, 0)
    if local.revealed_seat(request, match) == seat:
        return _local_table(request, match, seat)
    # Only public numbers reach the pass screen (scores, the hand number), never a card.
    context = _pass_context(match, local.names(match)[seat], view_for(match, seat))
    response = _private_response(render(request, "games/local_pass.html", context))
    local.forget_reveal(response, match)
    return response


def _pass_context(match: Match, name: str, view: dict[str, Any]) -> dict[str, Any]:
    names = local.names(match)
    return dict(
        match=match,
        name=name,
        version=view["version"],
        hand_number=view["hand_number"],
        target=view["rules"]["target"],
        scores=[{"name": names[n], "score": view["scores"][n]} for n in (0, 1)],
        urls={"reveal": reverse("games:local_reveal", args=[match.public_id])},
    )


@require_POST
def local_reveal(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    """Reveal my hand: only now is the hand of the player to act rendered, at the match's own
    address (in place over htmx, else after a redirect to it)."""
    match = _get_local_match(request, public_id)
    seat = local.seat_shown(match)
    if seat is None or client_version(request) != match.version:
        # A stale pass screen (another tab moved on): show the current one instead.
        return _to_local_page(request, match)
    if request.htmx:
        response = _local_table(request, match, seat)
    else:
        response = _private_response(redirect("games:local", public_id))
    local.remember_reveal(response, request, match, seat)
    return response


@require_POST
def local_act(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    """A move on the shared screen, for the player whose hand is revealed."""
    match = _get_local_match(request, public_id)
    form = MoveForm(request.POST)
    if client_version(request) != match.version:
        # The page is behind; answering with the regions of whoever acts now could show the
        # other player's hand. Back to the pass screen.
        return _to_local_page(request, match)
    shown = local.seat_shown(match)
    seat = 0 if shown is None else shown
    if not form.is_valid():
        return _private_response(refusal(request, match, seat, 400, form.first_error()))
    before = view_for(match, seat)
    try:
        services.submit(match, seat, form.action(), form.cleaned_data["version"])
    except Refused as refused:
        return _private_response(refusal(request, match, seat, refused.status, refused.message))
    now = local.seat_shown(match)
    if not (now is None or now == shown):
        # The turn passed, or a new hand was dealt: the pass screen, never a hand, until the
        # next player presses Reveal.
        return _to_local_page(request, match)
    if request.htmx:
        after = view_for(match, seat)
        response = HttpResponse(render_update(match, seat, before, after, request=request))
    else:
        response = redirect("games:local", public_id)
    if now is not None:
        local.remember_reveal(response, request, match, now)  # the same turn goes on
    return _private_response(response)


@require_POST
def local_order(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    """Arrange the hand of the player whose cards are revealed on the shared screen."""
    match = _get_local_match(request, public_id)
    shown = local.seat_shown(match)
    if shown is None:
        return _to_local_page(request, match)
    return _private_response(save_order(request, match, shown))


@require_GET
def local_hint(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    """What Bea would do, for the player whose cards are revealed on the shared screen. Only
    as an htmx answer: a plain GET must never reveal a hand past the pass screen."""
    match = _get_local_match(request, public_id)
    shown = local.seat_shown(match)
    if shown is None or not request.htmx:
        return _to_local_page(request, match)
    if (over := budgets.refused(request, match, shown, f"local:{match.pk}")) is not None:
        return _private_response(over)
    view = view_for(match, shown)
    context = table_context(match, shown, view, hint=hint_for(view))
    return _private_response(HttpResponse(render_regions(HINT_REGIONS, context, request)))


def _to_local_page(request: HtmxHttpRequest, match: Match) -> HttpResponse:
    """What the match's address shows now, instead of this answer: over htmx it replaces the
    page's main part in place (a revealed hand leaves the page with it), without JavaScript a
    redirect to the address (post/redirect/get)."""
    if not request.htmx:
        return _private_response(redirect("games:local", match.public_id))
    response = _local_page(request, match)
    if response.status_code == 200:
        response["HX-Retarget"] = "#main"
        response["HX-Reselect"] = "#main"
        response["HX-Reswap"] = "outerHTML"
    return response


@require_http_methods(["GET", "POST"])
def local_restart(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    """New round: after a confirmation, a new match replaces this one."""
    match = _get_local_match(request, public_id)
    if request.method == "POST" and request.POST.get("confirm"):
        try:
            new = services.restart_local(match, client_version(request))
        except Refused as refused:
            context = {"message": refused.message}
            return render(request, "games/refused.html", context, status=refused.status)
        return redirect("games:local", new.public_id)
    if not match.is_active:
        return redirect("games:local", public_id)
    context = {"match": match, "names": local.names(match), "version": match.version}
    return render(request, "games/local_restart.html", context)
