"""The table in the browser: thin views over ``games.services``.

Every move is a POST carrying the version it was made for. An htmx request gets back only the
regions that changed, as out-of-band swaps; a plain form post is redirected back to the table
(post/redirect/get), so the page also works without JavaScript.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.middleware import HtmxDetails

from games import local, private, services
from games.ai import hint as bea_hint
from games.forms import PRESET_NAMES, MoveForm, NewMatchForm
from games.models import Match, PrivateTable
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
    """The match and the seat the sender holds in it (None when they hold none): by account,
    or at a private table by the seat key this browser holds."""
    match = get_object_or_404(
        Match.objects.select_related("table").prefetch_related("seats__user"), public_id=public_id
    )
    return match, private.seat_for(match, request.user, request.COOKIES)


ViewFn = Callable[..., HttpResponse]


def login_or_guest_required(view: ViewFn) -> ViewFn:
    """``login_required``, except at a private table, whose guests have no account (their
    seat key decides, in ``_get_match_for_player``)."""

    @functools.wraps(view)
    def wrapped(request: HtmxHttpRequest, public_id: str, *args: Any, **kw: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            private_match = Match.objects.filter(public_id=public_id, kind=Match.Kind.PRIVATE)
            if not private_match.exists():
                return redirect_to_login(request.get_full_path())
        return view(request, public_id, *args, **kw)

    return wrapped


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
    if match.table is not None:
        context["invite"] = {
            "url": private.invite_url(request, match.table),
            "allow_spectators": match.table.allow_spectators,
        }
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


@login_or_guest_required
def table(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    match, seat = _get_match_for_player(request, public_id)
    if seat is None:
        if match.kind == Match.Kind.LOCAL:
            return redirect("games:local", public_id)
        if services.can_watch(match, request.user):
            return _watch_response(request, match)
        if match.table is not None:
            # The invitation page says whether a seat is free, the table full or expired.
            return redirect("games:private", match.table.token)
        raise Http404(_("No such match."))
    return _table_response(request, match, seat, hint=bool(request.GET.get("hint")))


def _watch_response(request: HtmxHttpRequest, match: Match, notice: str = "") -> HttpResponse:
    """The table as a watcher sees it: public information only, and no buttons."""
    view = spectator_as_view(services.spectator_view(match))
    view["live"] = services.live_state(match, None)
    context = table_context(match, 0, view, spectator=True, notice=notice, notice_level="info")
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
@login_or_guest_required
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


@login_or_guest_required
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


def _live_request(
    request: HtmxHttpRequest,
    public_id: str,
    act: Callable[[Match, int], Match | None],
) -> HttpResponse:
    """Run one live-play request (offer, answer, claim) for the requester's seat."""
    match, seat = _get_match_for_player(request, public_id)
    if seat is None:
        return _refused(request, match, None, 403, _("This is not your match: you hold no seat."))
    # Presented now, with the match's status now: the request may end the match.
    before = presented_view(match, services.table_view(match, seat))
    try:
        new = act(match, seat)
    except services.MoveRefused as refused:
        return _refused(request, match, seat, refused.status, refused.message)
    return _after_live_request(request, match, seat, before, new)


@require_POST
@login_or_guest_required
def offer(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    """Offer the other player a rematch (after the match) or a restart (during it)."""

    def act(match: Match, seat: int) -> None:
        services.make_offer(match, seat, request.POST.get("kind", ""), _client_version(request))

    return _live_request(request, public_id, act)


@require_POST
@login_or_guest_required
def answer(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    """Accept or decline the other player's offer, or withdraw one's own."""

    def act(match: Match, seat: int) -> Match | None:
        return services.answer_offer(
            match,
            seat,
            request.POST.get("offer"),
            request.POST.get("answer", ""),
            _client_version(request),
        )

    return _live_request(request, public_id, act)


@require_POST
@login_or_guest_required
def claim(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    """Win the match because the player to move has been away too long."""

    def act(match: Match, seat: int) -> None:
        services.claim_win(match, seat, _client_version(request))

    return _live_request(request, public_id, act)


@login_or_guest_required
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


# --- Private tables (games.private) -------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def private_new(request: HtmxHttpRequest) -> HttpResponse:
    """Play with a friend: the host's choices, then the table with its invitation link."""
    guest = not request.user.is_authenticated
    form = private.PrivateTableForm(request.POST or None, guest=guest)
    if request.method != "POST" or not form.is_valid():
        status = 400 if request.method == "POST" else 200
        return render(request, "games/private_new.html", {"form": form}, status=status)
    data = form.cleaned_data
    table, _match, key = private.open_table(
        None if guest else cast("User", request.user),
        name=data.get("name", ""),
        preset=data["preset"],
        target=data["target"],
        allow_spectators=data["allow_spectators"],
    )
    response = redirect("games:private", table.token)
    if key is not None:
        private.set_seat_cookie(response, request, table, key)
    return response


def _private_page(
    request: HtmxHttpRequest, template: str, table: PrivateTable, status: int, **extra: Any
) -> HttpResponse:
    context = {"table": table, "expire_days": private.EXPIRE_AFTER_DAYS, **extra}
    return render(request, f"games/{template}.html", context, status=status)


@require_GET
def private_table(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The invitation link: the table for its two players, a seat for the first visitor, and
    for everyone after them "full" (or the table to watch, if the host allowed it)."""
    table = get_object_or_404(PrivateTable, token=token)
    match = private.current_match(table) if table.expired_at is None else None
    if match is None:
        return _private_page(request, "private_expired", table, 410)
    seat = private.seat_for(match, request.user, request.COOKIES)
    if seat is not None:
        response = _table_response(request, match, seat)
        key = request.COOKIES.get(table.cookie_name)
        if key and private.guest_seat(match, request.COOKIES) is not None:
            private.set_seat_cookie(response, request, table, key)  # renew it
        return response
    if private.open_seat(match) is not None:
        # Taking the seat is a POST: link previews in chat apps open the link with GET.
        host = next(s.display_name for s in match.seats.all() if not s.is_open)
        form = private.GuestNameForm() if not request.user.is_authenticated else None
        return _private_page(request, "private_join", table, 200, match=match, host=host, form=form)
    if services.can_watch(match, request.user):
        return _watch_response(
            request, match, notice=_("This table is full: both seats are taken. You are watching.")
        )
    return _private_page(request, "private_full", table, 403, match=match)


@require_POST
def private_join(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The first visitor takes the second seat: as their account, or as a named guest."""
    table = get_object_or_404(PrivateTable, token=token)
    match = private.current_match(table) if table.expired_at is None else None
    if match is None:
        return _private_page(request, "private_expired", table, 410)
    if private.seat_for(match, request.user, request.COOKIES) is not None:
        return redirect("games:private", token)
    user = cast("User", request.user) if request.user.is_authenticated else None
    form = private.GuestNameForm(request.POST) if user is None else None
    if form is not None and not form.is_valid():
        host = next((s.display_name for s in match.seats.all() if not s.is_open), "")
        return _private_page(request, "private_join", table, 400, match=match, host=host, form=form)
    try:
        key = private.take_seat(match, user, form.cleaned_data["name"] if form else "")
    except private.TableFull:
        return _private_page(request, "private_full", table, 409, match=match)
    except services.MoveRefused as refused:
        return render(request, "games/refused.html", {"message": refused.message}, status=400)
    response = redirect("games:private", token)
    if key is not None:
        private.set_seat_cookie(response, request, table, key)
    return response


# --- Pass and play (games.local) ----------------------------------------------------------------


def _get_local_match(request: HtmxHttpRequest, public_id: str) -> Match:
    """The owner's pass-and-play match; anyone else gets a 404, as if there were none."""
    match = get_object_or_404(
        Match.objects.prefetch_related("seats__user"), public_id=public_id, kind=Match.Kind.LOCAL
    )
    if not local.owns(match, request):
        raise Http404(_("No such match."))
    return match


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
    key, fresh = local.owner_key(request)
    owner = cast("User", request.user) if request.user.is_authenticated else None
    match = local.start(owner, key, data["first"], data["second"], data["preset"], data["target"])
    response = redirect("games:local", match.public_id)
    if owner is None and fresh:
        local.set_owner_cookie(response, request, key)
    return response


def _local_table(request: HtmxHttpRequest, match: Match, seat: int) -> HttpResponse:
    view = services.table_view(match, seat)
    context = table_context(match, seat, view)
    return _private_response(render(request, "games/table.html", context))


@require_GET
def local_table(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    """The pass screen for whoever is to act; at a hand's end, the open result."""
    match = _get_local_match(request, public_id)
    follow = match.next_matches.order_by("-pk").first()
    if match.status == Match.Status.RESTARTED and follow is not None:
        return redirect("games:local", follow.public_id)
    seat = local.seat_shown(match)
    if seat is None:
        return _local_table(request, match, 0)
    # Only public numbers reach the pass screen (scores, the hand number), never a card.
    context = _pass_context(match, local.names(match)[seat], services.player_view(match, seat))
    return _private_response(render(request, "games/local_pass.html", context))


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
    """Reveal my hand: only now is the hand of the player to act rendered."""
    match = _get_local_match(request, public_id)
    seat = local.seat_shown(match)
    if seat is None or _client_version(request) != match.version:
        # A stale pass screen (another tab moved on): show the current one instead.
        return redirect("games:local", public_id)
    return _local_table(request, match, seat)


@require_POST
def local_act(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    """A move on the shared screen, for the player whose hand is revealed."""
    match = _get_local_match(request, public_id)
    form = MoveForm(request.POST)
    if _client_version(request) != match.version:
        # The page is behind; answering with the regions of whoever acts now could show the
        # other player's hand. Back to the pass screen.
        return _to_local_page(request, match)
    shown = local.seat_shown(match)
    seat = 0 if shown is None else shown
    if not form.is_valid():
        return _refused(request, match, seat, 400, form.first_error())
    before = presented_view(match, services.table_view(match, seat))
    try:
        services.submit(match, seat, form.action(), form.cleaned_data["version"])
    except services.MoveRefused as refused:
        return _refused(request, match, seat, refused.status, refused.message)
    now = local.seat_shown(match)
    if not request.htmx or not (now is None or now == shown):
        # The turn passed, or a new hand was dealt: the pass screen, never a hand, until the
        # next player presses Reveal.
        return _to_local_page(request, match)
    after = services.table_view(match, seat)
    html = render_update(match, seat, before, after, request=request)
    return _private_response(HttpResponse(html))


def _to_local_page(request: HtmxHttpRequest, match: Match) -> HttpResponse:
    target = reverse("games:local", args=[match.public_id])
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = target
        return response
    return redirect(target)


@require_http_methods(["GET", "POST"])
def local_restart(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    """New round: after a confirmation, a new match replaces this one."""
    match = _get_local_match(request, public_id)
    if request.method == "POST" and request.POST.get("confirm"):
        try:
            new = services.restart_local(match, _client_version(request))
        except services.MoveRefused as refused:
            context = {"message": refused.message}
            return render(request, "games/refused.html", context, status=refused.status)
        return redirect("games:local", new.public_id)
    if not match.is_active:
        return redirect("games:local", public_id)
    context = {"match": match, "names": local.names(match), "version": match.version}
    return render(request, "games/local_restart.html", context)
