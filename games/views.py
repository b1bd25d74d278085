"""The table in the browser: thin views over ``games.services``.

Every move is a POST carrying the version it was made for. An htmx request gets back only the
regions that changed, as out-of-band swaps; a plain form post is redirected back to the table
(post/redirect/get), so the page also works without JavaScript.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.middleware import HtmxDetails

from games import (
    access,
    arrange,
    guests,
    howto,
    local,
    presence,
    private,
    readers,
    replays,
    services,
    tips,
)
from games.ai import hint as bea_hint
from games.forms import MoveForm, NewMatchForm
from games.labels import PRESET_NAMES
from games.models import Match, PrivateTable
from games.readers import WATCHER, view_for
from games.starts import TooManyMatches, admit, client_address
from games.table.context import table_context
from games.table.regions import REGIONS, render_regions, render_update
from ginsite.htmx import go_to
from ginsite.refusals import Refused

if TYPE_CHECKING:
    from django.contrib.auth.models import User


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


HINT_REGIONS = ("hint", "pile", "hand", "actions")
OTHER_TAB = gettext_lazy(
    "The table changed in another tab or window; here it is as it is now. Nothing was changed."
)


def _find(request: HtmxHttpRequest, public_id: str, kind: str | None = None) -> access.Asker:
    """The match and who the sender is at it (``games.access``); no such match is a 404."""
    asker = access.find(public_id, access.of_request(request), kind=kind)
    if asker is None:
        raise Http404(_("No such match."))
    return asker


def _get_match_for_player(request: HtmxHttpRequest, public_id: str) -> tuple[Match, int | None]:
    """The match and the seat the sender holds in it (None when they hold none)."""
    asker = _find(request, public_id)
    return asker.match, asker.seat


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


def _hint_for(view: dict[str, Any]) -> dict[str, Any]:
    kinds = {a["type"] for a in view["legal_actions"]}
    if kinds <= {"next_hand", "seed"}:
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
    view = view_for(match, seat)
    context = table_context(
        match, seat, view, hint=_hint_for(view) if hint else None, notice=notice
    )
    if match.table is not None:
        context["invite"] = {
            "url": private.invite_url(request, match.table),
            "allow_spectators": match.table.allow_spectators,
        }
    context["tips"] = tips.should_show(request, match)
    response = render(request, "games/table.html", context, status=status)
    if context["tips"]:
        tips.mark_seen(response, request)  # once: the next page comes without them
    return response


def _refused(
    request: HtmxHttpRequest, match: Match, seat: int | None, status: int, message: str
) -> HttpResponse:
    """A refused request: the message, and the table as it really is now."""
    if seat is None:
        return render(request, "games/refused.html", {"message": message}, status=status)
    if request.htmx:
        # Every region, not just the notice: a stale page catches up with the real position.
        view = view_for(match, seat)
        context = table_context(match, seat, view, notice=message)
        return HttpResponse(render_regions(REGIONS, context, request), status=status)
    return _table_response(request, match, seat, status=status, notice=message)


def _moved(
    request: HtmxHttpRequest, match: Match, seat: int, before: dict[str, Any] | None
) -> HttpResponse:
    """The answer to a move that went through."""
    if not request.htmx:
        return redirect("games:table", match.public_id)
    after = view_for(match, seat)
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
    else:
        # A visitor without an account may have a match against Bea in this browser.
        match = guests.running_match(access.guest_key(request))
    if match is not None:
        running = _summary(match, request)
    return render(request, "home.html", {"form": NewMatchForm(), "running": running})


@require_GET
def how_to_play(request: HtmxHttpRequest) -> HttpResponse:
    """The rules of one preset (``?rules=``), every number from its ``Ruleset``."""
    preset = howto.preset_of(request.GET.get("rules"))
    return render(request, "games/how_to_play.html", howto.context(preset))


def _summary(match: Match, request: HtmxHttpRequest) -> dict[str, Any] | None:
    seat = access.at(match, access.of_request(request)).seat
    if seat is None:
        return None
    view = view_for(match, seat)
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
    asker = _find(request, public_id)
    match, seat = asker.match, asker.seat
    if seat is None:
        if match.kind == Match.Kind.LOCAL:
            return redirect("games:local", public_id)
        if asker.watcher:
            return _watch_response(request, match)
        if match.table is not None:
            # The invitation page says whether a seat is free, the table full or expired.
            return redirect("games:private", match.table.token)
        raise Http404(_("No such match."))
    # Opening the table is its player being here, with a socket or without (no JavaScript).
    presence.seat_active(match, seat)
    wants_hint = bool(request.GET.get("hint")) and readers.hints_allowed(match)
    response = _table_response(request, match, seat, hint=wants_hint)
    access.renew(response, request, asker)  # a guest's key: the match is in use
    return response


def _watch_response(request: HtmxHttpRequest, match: Match, notice: str = "") -> HttpResponse:
    """The table as a watcher sees it: public information only, and no buttons."""
    view = view_for(match, WATCHER)
    context = table_context(match, 0, view, spectator=True, notice=notice, notice_level="info")
    return render(request, "games/table.html", context)


@require_POST
def new_match(request: HtmxHttpRequest) -> HttpResponse:
    """A match against Bea: for a player, or without an account for this browser's guest key
    (one click on the home page; the key is made on the first match)."""
    form = NewMatchForm(request.POST)
    if not form.is_valid():
        return render(request, "home.html", {"form": form, "running": None}, status=400)
    data = form.cleaned_data
    # "New match" under a finished match links the two.
    previous_id = request.POST.get("previous", "")
    key = None
    try:
        if request.user.is_authenticated:
            user = cast("User", request.user)
            previous = Match.objects.filter(public_id=previous_id, seats__user=user).first()
            match = services.start_bea_match(
                user,
                data["preset"],
                data["target"],
                data["level"],
                replace_running=data["confirm"],
                previous=previous,
                admit=admit(f"user:{user.pk}", None),
            )
        else:
            key = access.guest_key(request) or access.new_key()
            match = guests.start(
                key,
                data["preset"],
                data["target"],
                data["level"],
                replace_running=data["confirm"],
                previous=guests.owned(key, previous_id),
                admit=admit(f"guest:{access.hash_key(key)}", client_address(request)),
            )
    except services.BeaMatchRunning as running:
        context = {"form": form, "running": _summary(running.running, request)}
        return render(request, "games/confirm_new.html", context)
    except TooManyMatches as refused:
        response = render(request, "games/refused.html", {"message": refused.message}, status=429)
        response["Retry-After"] = str(refused.retry_after)
        return response
    response = redirect("games:table", match.public_id)
    if key is not None:
        access.keep_guest_key(response, request, key)
    return response


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
    before = view_for(match, seat)
    try:
        services.submit(match, seat, form.action(), form.cleaned_data["version"])
    except services.StaleVersion as refused:
        # A move from a page that fell behind: most often another tab (or window) of the
        # same seat moved. Say so; the answer brings this page up to date.
        return _refused(request, match, seat, refused.status, str(OTHER_TAB))
    except Refused as refused:
        return _refused(request, match, seat, refused.status, refused.message)
    return _moved(request, match, seat, before)


@login_or_guest_required
def hint(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    match, seat = _get_match_for_player(request, public_id)
    if seat is None:
        raise Http404(_("No such match."))
    if not readers.hints_allowed(match):
        raise Http404(_("Hints are offered against Bea, or when both players agreed to them."))
    if not request.htmx:
        return redirect(reverse("games:table", args=[public_id]) + "?hint=1#hint")
    view = view_for(match, seat)
    context = table_context(match, seat, view, hint=_hint_for(view))
    return HttpResponse(render_regions(HINT_REGIONS, context, request))


def _save_order(request: HtmxHttpRequest, match: Match, seat: int) -> HttpResponse:
    """Keep the seat's arrangement: a sort (``sort``) or a dragged order (``order``, card
    codes). Only this seat's own table ever shows it."""
    view = view_for(match, seat)
    try:
        arrange.save(match, seat, view, request.POST)
    except ValueError as refused:
        return _refused(request, match, seat, 400, str(refused))
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


@require_POST
@login_or_guest_required
def order(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    match, seat = _get_match_for_player(request, public_id)
    if seat is None:
        return _refused(request, match, None, 403, _("This is not your match: you hold no seat."))
    return _save_order(request, match, seat)


def _after_live_request(
    request: HtmxHttpRequest, match: Match, seat: int, before: dict[str, Any], new: Match | None
) -> HttpResponse:
    """An offer, answer or claim went through: follow a new match, else show what changed."""
    if new is not None:
        return go_to(request, reverse("games:table", args=[new.public_id]))
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
    before = view_for(match, seat)
    try:
        new = act(match, seat)
    except Refused as refused:
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
            services.resign(match, seat, _client_version(request))
        except Refused as refused:
            return _refused(request, match, seat, refused.status, refused.message)
        return redirect("games:table", match.public_id)
    if not match.is_active:
        return redirect("games:table", match.public_id)
    context = {"match": match, "summary": _summary(match, request)}
    return render(request, "games/confirm_resign.html", context)


# --- Replays of finished hands (games.replays) -------------------------------------------------


@require_GET
def replay(request: HtmxHttpRequest, public_id: str, hand: int) -> HttpResponse:
    """A finished hand, move by move, both hands face up, with Bea's notes (``?move=n``: the
    position after the hand's n-th action; 0, the deal). Links step through it without
    JavaScript; with it, htmx swaps the stage and the arrow keys step (replay.js). For its
    players, the owner of a pass-and-play match, and whoever may watch it."""
    asker = _find(request, public_id)
    if asker.nobody:
        if not request.user.is_authenticated and asker.match.kind == Match.Kind.LOBBY:
            # As at the table: a lobby match is for signed-in watchers, so sign in first.
            return redirect_to_login(request.get_full_path())
        raise Http404(_("No such match."))
    match = asker.match
    try:
        review = replays.replay_of(match, hand)
    except replays.NoSuchHand:
        raise Http404(_("No such hand: it is not over yet, or there is none.")) from None
    raw = request.GET.get("move", "")
    # ASCII digits only, and few: "²" is a digit to isdigit() and not to int().
    move = int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 6 else 0
    context = replays.page_context(review, move)
    if request.htmx:
        return HttpResponse(
            render_to_string("games/replay.html#stage", context, request)
            + render_to_string("games/replay.html#position", {**context, "oob": True}, request)
        )
    return render(request, "games/replay.html", context)


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
        access.keep_seat_key(response, request, table, key)
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
    asker = access.at(match, access.of_request(request))
    if asker.seat is not None:
        response = _table_response(request, match, asker.seat)
        access.renew(response, request, asker)
        return response
    if private.open_seat(match) is not None:
        # Taking the seat is a POST: link previews in chat apps open the link with GET.
        host = next(s.display_name for s in match.seats.all() if not s.is_open)
        form = private.GuestNameForm() if not request.user.is_authenticated else None
        return _private_page(request, "private_join", table, 200, match=match, host=host, form=form)
    if asker.watcher:
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
    if access.at(match, access.of_request(request)).seat is not None:
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
    except Refused as refused:
        return render(request, "games/refused.html", {"message": refused.message}, status=400)
    response = redirect("games:private", token)
    if key is not None:
        access.keep_seat_key(response, request, table, key)
    return response


# --- Pass and play (games.local) ----------------------------------------------------------------


def _get_local_match(request: HtmxHttpRequest, public_id: str) -> Match:
    """The owner's pass-and-play match; anyone else gets a 404, as if there were none."""
    asker = _find(request, public_id, kind=Match.Kind.LOCAL)
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
    owner = cast("User", request.user) if request.user.is_authenticated else None
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
    if seat is None or _client_version(request) != match.version:
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
    if _client_version(request) != match.version:
        # The page is behind; answering with the regions of whoever acts now could show the
        # other player's hand. Back to the pass screen.
        return _to_local_page(request, match)
    shown = local.seat_shown(match)
    seat = 0 if shown is None else shown
    if not form.is_valid():
        return _private_response(_refused(request, match, seat, 400, form.first_error()))
    before = view_for(match, seat)
    try:
        services.submit(match, seat, form.action(), form.cleaned_data["version"])
    except Refused as refused:
        return _private_response(_refused(request, match, seat, refused.status, refused.message))
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
    return _private_response(_save_order(request, match, shown))


@require_GET
def local_hint(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    """What Bea would do, for the player whose cards are revealed on the shared screen. Only
    as an htmx answer: a plain GET must never reveal a hand past the pass screen."""
    match = _get_local_match(request, public_id)
    shown = local.seat_shown(match)
    if shown is None or not request.htmx:
        return _to_local_page(request, match)
    view = view_for(match, shown)
    context = table_context(match, shown, view, hint=_hint_for(view))
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
            new = services.restart_local(match, _client_version(request))
        except Refused as refused:
            context = {"message": refused.message}
            return render(request, "games/refused.html", context, status=refused.status)
        return redirect("games:local", new.public_id)
    if not match.is_active:
        return redirect("games:local", public_id)
    context = {"match": match, "names": local.names(match), "version": match.version}
    return render(request, "games/local_restart.html", context)
