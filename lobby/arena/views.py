"""The arena pages: the list (with the form for a private arena), an arena's page, and its
buttons (join, pause, leave). Thin: one call into ``service`` or ``schedule`` each, a refusal
answered with the page and its notice."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games.labels import PRESET_NAMES
from ginsite.lib.htmx import go_to
from ginsite.lib.refusals import Refused

from . import regions, schedule, service
from .models import Arena
from .templatetags.arena import rows

# The short targets an arena is played to.
TARGETS = (50, 100)

ArenaView = Callable[..., HttpResponse]


@require_GET
def arena_list(request: HttpRequest) -> HttpResponse:
    return render(request, "arena/list.html", _list_context(request))


def _list_context(request: HttpRequest, **extra: Any) -> dict[str, Any]:
    return {
        "rows": rows(service.listed(limit=20)),
        "mine": rows(_mine(request)),
        "minutes_choices": schedule.MINUTES,
        "starts_choices": (0, 5, 10, 30, 60),
        "presets": list(PRESET_NAMES.items()),
        "targets": TARGETS,
        **extra,
    }


def _mine(request: HttpRequest) -> list[Arena]:
    if not request.user.is_authenticated:
        return []
    found = Arena.objects.filter(created_by_id=request.user.pk, finished_at=None)
    return list(found.order_by("starts_at")[: schedule.OPEN_PRIVATE])


@login_required
@require_POST
def create(request: HttpRequest) -> HttpResponse:
    try:
        made = schedule.create_private(
            request.user,
            request.POST.get("name", ""),
            request.POST.get("preset", ""),
            request.POST.get("target", ""),
            minutes=request.POST.get("minutes", ""),
            starts_in=request.POST.get("starts_in", ""),
            rated=request.POST.get("rated") == "on",
            allow_bots=request.POST.get("bots") == "on",
        )
    except Refused as refused:
        context = _list_context(request, notice=refused.message)
        response = render(request, "arena/list.html", context, status=refused.status)
        for name, value in refused.headers.items():
            response[name] = value
        return response
    return redirect("arena:page", made.public_id)


@require_GET
def page(request: HttpRequest, public_id: str) -> HttpResponse:
    try:
        arena = service.find(public_id)
    except Refused as refused:
        return render(request, "arena/missing.html", {"notice": refused.message}, status=404)
    return _page(request, arena)


def _page(request: HttpRequest, arena: Arena, *, status: int = 200, **extra: Any) -> HttpResponse:
    if getattr(request, "htmx", False):
        html = regions.render_regions(arena, request.user, request=request, **extra)
        return HttpResponse(html, status=status)
    return render(
        request, "arena/arena.html", regions.context(arena, request.user, **extra), status=status
    )


def arena_action(view: ArenaView) -> ArenaView:
    """An arena button's post: signed in, POST only; the arena's page with the outcome."""

    @functools.wraps(view)
    def answered(request: HttpRequest, public_id: str) -> HttpResponse:
        try:
            arena = service.find(public_id)
        except Refused as refused:
            return render(request, "arena/missing.html", {"notice": refused.message}, status=404)
        try:
            message = view(request, arena)
        except Refused as refused:
            response = _page(
                request, arena, status=refused.status, notice=refused.message, level="error"
            )
            for name, value in refused.headers.items():
                response[name] = value
            return response
        if isinstance(message, HttpResponse):
            return message
        if getattr(request, "htmx", False):
            return _page(request, arena, notice=message, level="ok")
        messages.success(request, message)
        return redirect("arena:page", arena.public_id)

    return login_required(require_POST(answered))


@arena_action
def join(request: HttpRequest, arena: Arena) -> Any:
    service.join(request.user, arena)
    place = service.place_of(request.user, arena)
    running = [
        m for m in service.running_matches(arena) if request.user.pk in (m.first_id, m.second_id)
    ]
    if running and place is not None:
        return go_to(request, reverse("games:table", args=[running[0].match.public_id]))
    return _("You are in. You will be paired as soon as the arena runs and someone is free.")


@arena_action
def pause(request: HttpRequest, arena: Arena) -> Any:
    service.pause(request.user, arena)
    return _("Paused: you will not be paired until you come back.")


@arena_action
def leave(request: HttpRequest, arena: Arena) -> Any:
    service.leave(request.user, arena)
    return _("You left the arena.")
