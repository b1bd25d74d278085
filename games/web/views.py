"""The table in the browser: thin views over ``games.services``.

Every move is a POST carrying the version it was made for. An htmx request gets back only the
regions that changed, as out-of-band swaps; a plain form post is redirected back to the table
(post/redirect/get), so the page also works without JavaScript.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games import access, howto, services
from games.bea import guests
from games.bea.limits import TooManyMatches, admit
from games.labels import PRESET_NAMES
from games.live import correspondence, presence
from games.models import Match
from games.readers import view_for
from games.records import replays
from games.review import budget
from games.review import context as review_context
from games.table.context import hints_allowed, table_context
from games.table.regions import render_regions
from games.web import asker as page_asker
from games.web import moves as page_moves
from games.web import request_budget as budgets
from games.web.forms import NewMatchForm
from games.web.responses import (
    HINT_REGIONS,
    HtmxHttpRequest,
    client_version,
    hint_for,
    login_or_guest_required,
    move_answer,
    moved_response,
    refusal,
    refused_alone,
    save_order,
    table_response,
    watch_response,
)
from ginsite.lib import numbers
from ginsite.lib.htmx import go_to
from ginsite.lib.refusals import Refused

if TYPE_CHECKING:
    pass


# --- Pages ----------------------------------------------------------------------------------------


@require_GET
def home(request: HtmxHttpRequest) -> HttpResponse:
    running = None
    turns: dict[str, Any] = {}
    user = page_asker.visitor(request).account
    if user is not None:
        match = services.running_bea_match(user)
        # Correspondence matches waiting for this player's move.
        found = correspondence.your_turn(user)
        waiting = correspondence.waiting_count(user) - len(found)
        turns = {"turns": found, "turns_waiting": waiting, "turns_shown": bool(found or waiting)}
    else:
        # A visitor without an account may have a match against Bea in this browser.
        match = guests.running_match(access.guest_key(request))
    if match is not None:
        running = _summary(match, request)
    context = {"form": NewMatchForm(), "running": running, **turns}
    return render(request, "home.html", context)


@require_GET
def how_to_play(request: HtmxHttpRequest) -> HttpResponse:
    """The rules of one preset (``?rules=``), every number from its ``Ruleset``."""
    preset = howto.preset_of(request.GET.get("rules"))
    return render(request, "games/how_to_play.html", howto.context(preset))


def _summary(match: Match, request: HtmxHttpRequest) -> dict[str, Any] | None:
    seat = page_asker.at(request, match).seat
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
    asker = page_asker.find(request, public_id)
    match, seat = asker.match, asker.seat
    if seat is None:
        if match.kind == Match.Kind.LOCAL:
            return redirect("games:local", public_id)
        if asker.watcher:
            return watch_response(request, match)
        # Not even a private table's invitation link: its token is for those who hold it.
        raise Http404(_("No such match."))
    # Opening the table is its player being here, with a socket or without (no JavaScript).
    presence.seat_active(match, seat)
    wants_hint = bool(request.GET.get("hint")) and hints_allowed(match)
    response = table_response(request, match, seat, hint=wants_hint)
    access.renew(response, request, asker)  # a guest's key: the match is in use
    return response


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
    visitor = page_asker.visitor(request)
    key = None
    try:
        if visitor.account is not None:
            user = visitor.account
            previous = Match.objects.filter(public_id=previous_id, seats__user=user).first()
            match = services.start_bea_match(
                user,
                data["preset"],
                data["target"],
                data["level"],
                replace_running=data["confirm"],
                previous=previous,
                admit=admit(f"user:{user.pk}", visitor.address),
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
                admit=admit(f"guest:{access.hash_key(key)}", visitor.address),
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
    """A move from the table's form, through the page's door (``games.web.moves``): the regions
    it changed, or the refusal with the table as it really is now."""
    try:
        match, seat = page_asker.player(request, public_id)
    except Refused as refused:
        return refused_alone(request, refused.status, refused.message)
    attempt = page_moves.attempt(match, seat, request.POST)
    return move_answer(request, attempt)


@login_or_guest_required
def hint(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    asker = page_asker.find(request, public_id)
    match, seat = asker.match, asker.seat
    if seat is None:
        raise Http404(_("No such match."))
    if not hints_allowed(match):
        raise Http404(_("Hints are offered against Bea, or when both players agreed to them."))
    if not request.htmx:
        return redirect(reverse("games:table", args=[public_id]) + "?hint=1#hint")
    if (over := budgets.refused(request, match, seat, f"seat:{match.pk}:{seat}")) is not None:
        return over
    view = view_for(match, seat)
    context = table_context(match, seat, view, hint=hint_for(view))
    return HttpResponse(render_regions(HINT_REGIONS, context, request))


@require_POST
@login_or_guest_required
def order(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    asker = page_asker.find(request, public_id)
    match, seat = asker.match, asker.seat
    if seat is None:
        return refusal(request, match, None, 403, _("This is not your match: you hold no seat."))
    return save_order(request, match, seat)


def _after_live_request(
    request: HtmxHttpRequest, match: Match, seat: int, before: dict[str, Any], new: Match | None
) -> HttpResponse:
    """An offer, answer or claim went through: follow a new match, else show what changed."""
    if new is not None:
        return go_to(request, reverse("games:table", args=[new.public_id]))
    return moved_response(request, match, seat, before)


def _live_request(
    request: HtmxHttpRequest,
    public_id: str,
    act: Callable[[Match, int], Match | None],
) -> HttpResponse:
    """Run one live-play request (offer, answer, claim) for the requester's seat."""
    asker = page_asker.find(request, public_id)
    match = asker.match
    try:
        seat = page_asker.seat(asker)
        before = view_for(match, seat)
        new = act(match, seat)
    except Refused as refused:
        return refusal(request, match, asker.seat, refused.status, refused.message)
    return _after_live_request(request, match, seat, before, new)


@require_POST
@login_or_guest_required
def offer(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    """Offer the other player a rematch (after the match) or a restart (during it)."""

    def act(match: Match, seat: int) -> None:
        services.make_offer(match, seat, request.POST.get("kind", ""), client_version(request))

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
            client_version(request),
        )

    return _live_request(request, public_id, act)


@require_POST
@login_or_guest_required
def claim(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    """Win the match because the player to move has been away too long."""

    def act(match: Match, seat: int) -> None:
        services.claim_win(match, seat, client_version(request))

    return _live_request(request, public_id, act)


@login_or_guest_required
def resign(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    """GET asks for confirmation; POST with ``confirm`` resigns."""
    asker = page_asker.find(request, public_id)
    match, seat = asker.match, asker.seat
    if seat is None:
        if request.method == "POST":
            return refusal(request, match, None, 403, _("This is not your match."))
        raise Http404(_("No such match."))
    if request.method == "POST" and request.POST.get("confirm"):
        try:
            services.resign(match, seat, client_version(request))
        except Refused as refused:
            return refusal(request, match, seat, refused.status, refused.message)
        return redirect("games:table", match.public_id)
    if not match.is_active:
        return redirect("games:table", match.public_id)
    context = {"match": match, "summary": _summary(match, request)}
    return render(request, "games/confirm_resign.html", context)


# --- Replays of finished hands (games.records.replays) -------------------------------------


@require_GET
def replay(request: HtmxHttpRequest, public_id: str, hand: int) -> HttpResponse:
    """A finished hand, move by move, both hands face up, with Bea's notes and her review
    (``games.review``: each decision's cost, for whom it is shown) (``?move=n``: the
    position after the hand's n-th action; 0, the deal). Links step through it without
    JavaScript; with it, htmx swaps the stage and the arrow keys step (replay.js). For its
    players, the owner of a pass-and-play match, and whoever may watch it."""
    asker = page_asker.find(request, public_id)
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
    # Anything but a move's number in ASCII digits shows the start of the hand.
    move = numbers.parse(request.GET.get("move", ""), high=999_999) or 0
    judged = review_context.for_hand(review, asker, budget.reader_of(request))
    context = review_context.on_page(replays.page_context(review, move), judged)
    if request.htmx:
        return HttpResponse(
            render_to_string("games/replay.html#stage", context, request)
            + render_to_string("games/replay.html#position", {**context, "oob": True}, request)
        )
    return render(request, "games/replay.html", context)
