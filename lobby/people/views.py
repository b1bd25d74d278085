"""Finding players and following them: the player search, a player's page, the friends list,
follow and unfollow. Thin, like the lobby's other views: reads from ``lobby.people.friends`` and
``games.records.public``, changes through ``lobby.services``.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AbstractBaseUser
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games.bea.limits import client_address
from games.labels import PRESET_NAMES
from games.live import correspondence
from games.records import matches as history
from games.records import public as records
from games.records.stats import player_stats
from games.services import TARGETS
from ginsite.lib.refusals import Refused
from lobby import presence
from lobby import services as lobby_services
from lobby.models import display_name_of, ensure_profile
from lobby.people import completion, friends
from lobby.ratings.chart import profile_ratings
from lobby.views import _get_player, _me


@require_GET
@login_required
def search(request: HttpRequest) -> HttpResponse:
    """Players whose name starts with ``q``; under htmx only the results, in place."""
    q = request.GET.get("q", "")
    context: dict[str, Any] = {"q": q[:100], "results": [], "error": "", "search_page": True}
    status, headers = 200, {}
    if "q" in request.GET:
        try:
            context["results"] = friends.search(_me(request), q, client_address(request))
        except Refused as refused:
            context["error"], status, headers = refused.message, refused.status, refused.headers
    template = "lobby/search_results.html" if request.htmx else "lobby/search.html"  # type: ignore[attr-defined]
    response = render(request, template, context, status=status)
    for name, value in headers.items():
        response[name] = value
    return response


@require_GET
@login_required
def friends_page(request: HttpRequest) -> HttpResponse:
    me = _me(request)
    return render(
        request,
        "lobby/friends.html",
        {"friends": friends.friends(me), "me_busy": me.pk in presence.busy_user_ids()},
    )


def _viewer_context(viewer: Any, user: AbstractBaseUser) -> dict[str, Any]:
    """What the page shows a signed-in visitor about another player: following, blocks, the
    head-to-head record."""
    if not viewer.is_authenticated or viewer.pk == user.pk:
        return {"i_blocked": False, "i_follow": False, "hidden": False, "head_to_head": None}
    hidden = user.pk in presence.hidden_from(viewer.pk)
    return {
        "i_blocked": lobby_services.has_blocked(viewer, user),
        # A block either way overrides a follow: the page offers neither follow nor friend.
        "i_follow": not hidden and lobby_services.follows(viewer, user),
        "hidden": hidden,
        "head_to_head": records.head_to_head(viewer, user),
    }


@require_GET
def player(request: HttpRequest, username: str) -> HttpResponse:
    user = _get_player(username)
    is_me = user == request.user
    # A player's own matches: matches against Bea are nobody else's business.
    page, rows = history.page_of(user, request.GET.get("page")) if is_me else (None, [])
    ctx = {
        "match_page": page,
        "match_rows": rows,
        "player": user,
        "profile": ensure_profile(user),
        "stats": player_stats(user),
        "ratings": profile_ratings(user),
        "record": records.record(user),
        "recent": records.recent_matches(user, request.user),
        "completion": completion.of(user.pk),
        "completion_last": completion.LAST,
        "is_me": is_me,
        **_viewer_context(request.user, user),
        # The challenge form on the profile page offers what the lobby's does.
        "presets": list(PRESET_NAMES.items()),
        "targets": TARGETS,
        "days_choices": correspondence.DAYS_CHOICES,
    }
    return render(request, "lobby/player.html", ctx)


@require_POST
@login_required
def follow(request: HttpRequest, username: str) -> HttpResponse:
    other = _get_player(username)
    try:
        lobby_services.follow(_me(request), other)
    except Refused as refused:
        messages.error(request, refused.message)
    else:
        name = display_name_of(other)
        messages.success(request, _("You follow %(name)s now.") % {"name": name})
    return redirect("lobby:player", username)


@require_POST
@login_required
def unfollow(request: HttpRequest, username: str) -> HttpResponse:
    other = _get_player(username)
    lobby_services.unfollow(_me(request), other)
    messages.success(
        request, _("You no longer follow %(name)s.") % {"name": display_name_of(other)}
    )
    return redirect("lobby:player", username)
