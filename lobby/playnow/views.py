"""The buttons of Bea while you wait: on the "Play now" tile (play her, keep waiting) and at
her table (go to the person found, stop looking). Thin: one call of ``offer`` and an answer."""

from __future__ import annotations

from typing import cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AbstractBaseUser
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import services as game_services
from games.bea.limits import admit
from ginsite.lib.htmx import go_to
from ginsite.lib.refusals import Refused
from lobby import regions as lobby_regions
from lobby.pool import service as pool
from lobby.views import lobby_action

from . import notice, offer


def _me(request: HttpRequest) -> AbstractBaseUser:
    return cast(AbstractBaseUser, request.user)


def _table(match_id: str) -> str:
    return reverse("games:table", args=[match_id])


@lobby_action
def play_bea(request: HttpRequest) -> HttpResponse:
    """Bea while you wait: to her table, still in the pool."""
    user = _me(request)
    # Counted like any match against Bea (games.bea.limits): a refusal says when to come back.
    match = offer.play_bea(user, admit=admit(f"user:{user.pk}", None))
    return go_to(request, _table(match.public_id))


@lobby_action
def decline(request: HttpRequest) -> HttpResponse:
    """Keep waiting: the tile again, the offer smaller."""
    user = _me(request)
    offer.decline(user)
    if getattr(request, "htmx", False):
        html = lobby_regions.render_regions(user, ("pool",), request=request)
        return HttpResponse(html)
    return redirect("lobby:lobby")


def _answer_at_table(request: HttpRequest, said: str) -> HttpResponse:
    """The notice as it is now (under htmx), or back to the table against Bea (without)."""
    user = _me(request)
    if getattr(request, "htmx", False):
        return HttpResponse(notice.render(user, oob=True, said=said))
    if said:
        messages.info(request, said)
    running = game_services.running_bea_match(user)
    return redirect(_table(running.public_id) if running else reverse("lobby:lobby"))


@require_POST
@login_required
def switch(request: HttpRequest) -> HttpResponse:
    """To the person the pool found: the match against Bea set aside."""
    user = _me(request)
    try:
        match = offer.switch(user)
    except Refused as refused:
        return _answer_at_table(request, refused.message)
    notice.tell_opponent(user, match)
    return go_to(request, _table(match.public_id))


@require_POST
@login_required
def leave(request: HttpRequest) -> HttpResponse:
    """Stop looking for a person; the match against Bea goes on."""
    try:
        pool.leave_pool(_me(request))
    except Refused as refused:
        return _answer_at_table(request, refused.message)
    return _answer_at_table(request, _("You stopped looking for a person."))
