"""The moderators' pages: the queue of reports with the suspicious patterns, and a player's
page with the evidence, the standing sanctions, the log and the actions. Moderators only
(``access.moderator_required``: 404 for anyone else). Each action is a plain form posted and
redirected back to the player's page, which says what was done or why not."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from ginsite.lib.refusals import Refused
from lobby.moderation import evidence, patterns, queue
from lobby.moderation.sanctions import actions

from .access import moderator_required
from .models import LogEntry, Reason, Sanction


def _player(username: str) -> Any:
    """Any account of that name, closed ones too (a closure can be lifted)."""
    model = get_user_model()
    found = model.objects.select_related("profile")
    return get_object_or_404(found, **{model.USERNAME_FIELD: username})


@require_GET
@moderator_required
def queue_page(request: HttpRequest) -> HttpResponse:
    found_at, suspicions = patterns.latest()
    context = {
        "open_groups": queue.open_groups(),
        "closed_groups": queue.closed_groups(),
        "found_at": found_at,
        "suspicions": suspicions,
        "window_days": patterns.WINDOW_DAYS,
    }
    return render(request, "moderation/queue.html", context)


@require_POST
@moderator_required
def find_patterns(request: HttpRequest) -> HttpResponse:
    found = patterns.find()
    messages.success(request, _("Suspicious patterns found: %(n)s.") % {"n": len(found)})
    return redirect("moderation:queue")


@require_GET
@moderator_required
def player_page(request: HttpRequest, username: str) -> HttpResponse:
    player = _player(username)
    reports = queue.reports_of(player)
    reporters = {r.reporter_id: r.reporter for r in reports}
    context = {
        "player": player,
        "account": evidence.account(player),
        "reports": reports,
        "between": [
            (reporter, evidence.matches_between(player, reporter))
            for reporter in reporters.values()
        ],
        "recent": evidence.recent_rated(player),
        "standing": Sanction.objects.filter(user=player, lifted_at__isnull=True),
        "log": LogEntry.objects.filter(player=player).select_related("moderator", "sanction")[:100],
        "kinds": [(k, label) for k, label in Sanction.Kind.choices],
        "topics": Reason.choices,
    }
    return render(request, "moderation/player.html", context)


def _done(request: HttpRequest, username: str, call: Any, done: str) -> HttpResponse:
    try:
        call()
    except Refused as refused:
        messages.error(request, refused.message)
    else:
        messages.success(request, done)
    return redirect("moderation:player", username)


@require_POST
@moderator_required
def act(request: HttpRequest, username: str) -> HttpResponse:
    player = _player(username)
    post = request.POST
    kind, topic, reason = post.get("kind", ""), post.get("topic", ""), post.get("reason", "")

    def call() -> None:
        actions.act(request.user, player, kind, topic, reason, refund=post.get("refund") == "on")

    label = dict(Sanction.Kind.choices).get(kind, "")
    return _done(request, username, call, _("Done: %(action)s.") % {"action": label})


@require_POST
@moderator_required
def lift(request: HttpRequest, username: str, pk: int) -> HttpResponse:
    player = _player(username)
    sanction = get_object_or_404(Sanction, pk=pk, user=player)

    def call() -> None:
        actions.lift(request.user, sanction.pk, request.POST.get("reason", ""))

    done = _("Lifted: %(action)s.") % {"action": sanction.get_kind_display()}
    return _done(request, username, call, done)


@require_POST
@moderator_required
def dismiss(request: HttpRequest, username: str) -> HttpResponse:
    player = _player(username)

    def call() -> None:
        actions.dismiss(request.user, player, request.POST.get("reason", ""))

    return _done(request, username, call, _("The reports are closed."))
