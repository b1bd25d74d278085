"""The players' side of moderation: the report page (from a player's page, or the table's
link with the match attached) and the acknowledgement of a moderator's notice. Thin: the
rules are ``reports``' and ``actions``'; a refusal is answered with its status and message."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods, require_POST

from ginsite.lib.refusals import NotFound, Refused
from lobby.models import display_name_of
from lobby.moderation import reports
from lobby.moderation.sanctions import actions, notices

from .models import NOTE_MAX, Reason

TEMPLATE = "moderation/report.html"


def _template(request: HttpRequest) -> str:
    """The whole page, or under htmx only the form's region (the form, the thanks, or why
    not)."""
    return f"{TEMPLATE}#form" if request.htmx else TEMPLATE  # type: ignore[attr-defined]


def _context(reported: Any, **more: Any) -> dict[str, Any]:
    return {
        "reported": reported,
        "name": display_name_of(reported) if reported is not None else "",
        "reasons": Reason.choices,
        "note_max": NOTE_MAX,
        **more,
    }


@require_http_methods(["GET", "POST"])
@login_required
def report(request: HttpRequest, username: str) -> HttpResponse:
    """The report form (GET), and a report sent from it (POST)."""
    match = (request.POST or request.GET).get("match", "")[:64]
    try:
        reported = reports.reportable(request.user, username)
    except NotFound:
        raise Http404 from None
    except Refused as refused:
        # Nothing to fill in: the page says why (not yourself, no verified address, ...).
        context = _context(None, refused=refused.message, username=username)
        return render(request, _template(request), context, status=refused.status)
    if request.method == "GET":
        return render(request, TEMPLATE, _context(reported, match=match))
    return _sent(request, reported, match)


def _sent(request: HttpRequest, reported: Any, match: str) -> HttpResponse:
    reason, note = request.POST.get("reason", ""), request.POST.get("note", "")
    try:
        reports.report(request.user, reported.get_username(), reason, note, match or None)
    except Refused as refused:
        context = _context(reported, match=match, error=refused.message, reason=reason, note=note)
        response = render(request, _template(request), context, status=refused.status)
        for name, value in refused.headers.items():
            response[name] = value
        return response
    if request.htmx:  # type: ignore[attr-defined]
        return render(request, _template(request), _context(reported, thanks=reports.thanks()))
    messages.success(request, reports.thanks())
    return redirect("lobby:player", reported.get_username())


@require_POST
@login_required
def acknowledge(request: HttpRequest, pk: int) -> HttpResponse:
    """The player has read a notice: gone from this page (htmx) and their others (pushed)."""
    try:
        actions.acknowledge(request.user, pk)
    except Refused:
        raise Http404 from None
    if request.htmx:  # type: ignore[attr-defined]
        return HttpResponse(notices.render(request.user))
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(back, {request.get_host()}, request.is_secure()):
        back = "/"
    return redirect(back)
