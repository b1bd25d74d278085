"""The table in the browser: thin views over ``games.services``.

Every move is a POST carrying the version it was made for. An htmx request gets back only the
regions that changed, as out-of-band swaps; a plain form post is redirected back to the table
(post/redirect/get), so the page also works without JavaScript.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any, cast

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.middleware import HtmxDetails

from games import services
from games.ai import hint as bea_hint
from games.forms import PRESET_NAMES, MoveForm, NewMatchForm
from games.models import Match
from games.regions import (
    REGIONS,
    presented_view,
    render_regions,
    render_update,
    spectator_as_view,
    table_context,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import User


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


# Without JavaScript a press of Continue lets Bea finish her turn; this bounds it.
BEA_MOVES_PER_CONTINUE = 8
HINT_REGIONS = ("hint", "pile", "hand", "actions")


def _get_match_for_player(request: HtmxHttpRequest, public_id: str) -> tuple[Match, int | None]:
    """The match and the seat the user holds in it (None when they hold none)."""
    match = get_object_or_404(Match.objects.prefetch_related("seats__user"), public_id=public_id)
    return match, services.seat_of(match, request.user)


def _hint_for(view: dict[str, Any]) -> dict[str, Any]:
    kinds = {a["type"] for a in view["legal_actions"]}
    if not kinds or kinds == {"next_hand"}:
        return {"action": {}, "reason": _("There is nothing to decide right now.")}
    return bea_hint(view)


def _table_response(
    request: HtmxHttpRequest,
    match: Match,
    seat: int,
    *,
    status: int = 200,
    notice: str = "",
    hint: bool = False,
) -> HttpResponse:
    view = services.table_view(match, seat)
    context = table_context(
        match, seat, view, hint=_hint_for(view) if hint else None, notice=notice
    )
    return render(request, "games/table.html", context, status=status)


def _refused(
    request: HtmxHttpRequest, match: Match, seat: int | None, status: int, message: str
) -> HttpResponse:
    """A refused request: the message, and the table as it really is now."""
    if seat is None:
        return render(request, "games/refused.html", {"message": message}, status=status)
    if request.htmx:
        # Every region, not just the notice: a stale page catches up with the real position.
        view = services.table_view(match, seat)
        context = table_context(match, seat, view, notice=message)
        return HttpResponse(render_regions(REGIONS, context, request), status=status)
    return _table_response(request, match, seat, status=status, notice=message)


def _moved(
    request: HtmxHttpRequest, match: Match, seat: int, before: dict[str, Any] | None
) -> HttpResponse:
    """The answer to a move that went through."""
    if not request.htmx:
        return redirect("games:table", match.public_id)
    after = services.table_view(match, seat)
    return HttpResponse(render_update(match, seat, before, after, request=request))


def _client_version(request: HtmxHttpRequest) -> int | None:
    raw = request.POST.get("version", "")
    return int(raw) if raw.isdigit() else None


# --- Pages ----------------------------------------------------------------------------------------


@require_GET
def home(request: HtmxHttpRequest) -> HttpResponse:
    running = None
    if request.user.is_authenticated:
        match = services.running_bea_match(request.user)
        if match is not None:
            running = _summary(match, request)
    return render(request, "home.html", {"form": NewMatchForm(), "running": running})


def _summary(match: Match, request: HtmxHttpRequest) -> dict[str, Any] | None:
    seat = services.seat_of(match, request.user)
    if seat is None:
        return None
    view = services.player_view(match, seat)
    opponent = next((s.display_name for s in match.seats.all() if s.number != seat), "")
    return {
        "match": match,
        "opponent": opponent,
        "mine": view["scores"][seat],
        "theirs": view["scores"][1 - seat],
        "target": view["rules"]["target"],
        "hand_number": view["hand_number"],
        "preset": PRESET_NAMES.get(view["rules"]["name"], view["rules"]["name"]),
    }


@login_required
def table(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    match, seat = _get_match_for_player(request, public_id)
    if seat is None:
        if services.can_watch(match, request.user):
            return _watch_response(request, match)
        raise Http404(_("No such match."))
    return _table_response(request, match, seat, hint=bool(request.GET.get("hint")))


def _watch_response(request: HtmxHttpRequest, match: Match) -> HttpResponse:
    """The table as a watcher sees it: public information only, and no buttons."""
    view = spectator_as_view(services.spectator_view(match))
    view["live"] = services.live_state(match, None)
    context = table_context(match, 0, view, spectator=True)
    return render(request, "games/table.html", context)


@require_POST
@login_required
def new_match(request: HtmxHttpRequest) -> HttpResponse:
    form = NewMatchForm(request.POST)
    if not form.is_valid():
        return render(request, "home.html", {"form": form, "running": None}, status=400)
    user = cast("User", request.user)  # login_required
    running = services.running_bea_match(user)
    if running is not None and not form.cleaned_data["confirm"]:
        return render(
            request,
            "games/confirm_new.html",
            {"form": form, "running": _summary(running, request)},
        )
    data = form.cleaned_data
    previous = None
    if running is not None:
        seat = services.seat_of(running, request.user)
        if seat is not None:
            # It may have ended meanwhile; then there is nothing to abandon.
            with contextlib.suppress(services.MatchClosed):
                services.abandon(running, seat)
        previous = running
    else:
        # "New match" under a finished match links the two.
        previous_id = request.POST.get("previous", "")
        previous = Match.objects.filter(public_id=previous_id, seats__user=user).first()
    match = services.start_bea_match(
        user, data["preset"], data["target"], data["level"], previous=previous
    )
    return redirect("games:table", match.public_id)


# --- Moves ----------------------------------------------------------------------------------------


@require_POST
@login_required
def act(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    match, seat = _get_match_for_player(request, public_id)
    if seat is None:
        return _refused(request, match, None, 403, _("This is not your match: you hold no seat."))
    form = MoveForm(request.POST)
    if not form.is_valid():
        return _refused(request, match, seat, 400, form.first_error())
    # Presented now, with the match's status now: the request may end the match.
    before = presented_view(match, services.table_view(match, seat))
    try:
        services.submit(match, seat, form.action(), form.cleaned_data["version"])
    except services.MoveRefused as refused:
        return _refused(request, match, seat, refused.status, refused.message)
    return _moved(request, match, seat, before)


@require_POST
@login_required
def bea(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    """Let Bea make her move. With htmx one action per request, so that the page can pause
    between them; without, she finishes her turn."""
    match, seat = _get_match_for_player(request, public_id)
    if seat is None:
        return _refused(request, match, None, 403, _("This is not your match: you hold no seat."))
    before = services.table_view(match, seat)
    if request.htmx:
        played = services.play_bea(match) is not None
        if not played and _client_version(request) == before["version"]:
            return HttpResponse(status=204)  # nothing to do and the page is up to date
        # A page at another version gets every region; one at this version, the changes.
        shown = before if _client_version(request) == before["version"] else None
        return _moved(request, match, seat, shown)
    for _step in range(BEA_MOVES_PER_CONTINUE):
        if services.play_bea(match) is None:
            break
    return redirect("games:table", match.public_id)


@login_required
def hint(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    match, seat = _get_match_for_player(request, public_id)
    if seat is None:
        raise Http404(_("No such match."))
    if not request.htmx:
        return redirect(reverse("games:table", args=[public_id]) + "?hint=1#hint")
    view = services.player_view(match, seat)
    context = table_context(match, seat, view, hint=_hint_for(view))
    return HttpResponse(render_regions(HINT_REGIONS, context, request))


def _after_live_request(
    request: HtmxHttpRequest, match: Match, seat: int, before: dict[str, Any], new: Match | None
) -> HttpResponse:
    """An offer, answer or claim went through: follow a new match, else show what changed."""
    if new is not None:
        target = reverse("games:table", args=[new.public_id])
        if request.htmx:
            response = HttpResponse(status=204)
            response["HX-Redirect"] = target
            return response
        return redirect(target)
    return _moved(request, match, seat, before)


@require_POST
@login_required
def offer(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    """Offer the other player a rematch (after the match) or a restart (during it)."""
    match, seat = _get_match_for_player(request, public_id)
    if seat is None:
        return _refused(request, match, None, 403, _("This is not your match: you hold no seat."))
    # Presented now, with the match's status now: the request may end the match.
    before = presented_view(match, services.table_view(match, seat))
    try:
        services.make_offer(match, seat, request.POST.get("kind", ""), _client_version(request))
    except services.MoveRefused as refused:
        return _refused(request, match, seat, refused.status, refused.message)
    return _after_live_request(request, match, seat, before, None)


@require_POST
@login_required
def answer(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    """Accept or decline the other player's offer, or withdraw one's own."""
    match, seat = _get_match_for_player(request, public_id)
    if seat is None:
        return _refused(request, match, None, 403, _("This is not your match: you hold no seat."))
    # Presented now, with the match's status now: the request may end the match.
    before = presented_view(match, services.table_view(match, seat))
    try:
        new = services.answer_offer(
            match,
            seat,
            request.POST.get("offer"),
            request.POST.get("answer", ""),
            _client_version(request),
        )
    except services.MoveRefused as refused:
        return _refused(request, match, seat, refused.status, refused.message)
    return _after_live_request(request, match, seat, before, new)


@require_POST
@login_required
def claim(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    """Win the match because the player to move has been away too long."""
    match, seat = _get_match_for_player(request, public_id)
    if seat is None:
        return _refused(request, match, None, 403, _("This is not your match: you hold no seat."))
    # Presented now, with the match's status now: the request may end the match.
    before = presented_view(match, services.table_view(match, seat))
    try:
        services.claim_win(match, seat, _client_version(request))
    except services.MoveRefused as refused:
        return _refused(request, match, seat, refused.status, refused.message)
    return _after_live_request(request, match, seat, before, None)


@login_required
def resign(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    """GET asks for confirmation; POST with ``confirm`` resigns."""
    match, seat = _get_match_for_player(request, public_id)
    if seat is None:
        if request.method == "POST":
            return _refused(request, match, None, 403, _("This is not your match."))
        raise Http404(_("No such match."))
    if request.method == "POST" and request.POST.get("confirm"):
        try:
            services.resign(match, seat)
        except services.MoveRefused as refused:
            return _refused(request, match, seat, refused.status, refused.message)
        return redirect("games:table", match.public_id)
    if not match.is_active:
        return redirect("games:table", match.public_id)
    context = {"match": match, "summary": _summary(match, request)}
    return render(request, "games/confirm_resign.html", context)
