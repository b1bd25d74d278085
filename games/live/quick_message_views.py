"""The table's quick messages in the browser: send one, mute or unmute them. Thin: ``access``
finds the reader, ``quick_messages`` decides. Under htmx a message sent answers 204 (the
bubble comes back over the table socket, to both players at once) and a refusal answers the
table's notice with its status; without JavaScript both go back to the table."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import access
from games.live import quick_messages
from games.web import asker as page_asker
from games.web.views import login_or_guest_required
from ginsite.lib.refusals import Refused


def _asker(request: HttpRequest, public_id: str) -> access.Asker:
    asker = page_asker.find(request, public_id)
    if not asker.at_table:
        raise Http404(_("No such match."))
    return asker


def _refused(request: HttpRequest, public_id: str, refused: Refused) -> HttpResponse:
    if not getattr(request, "htmx", False):
        messages.error(request, refused.message)
        return redirect("games:table", public_id)
    html = format_html(
        '<div id="notice" class="notice error" role="alert" hx-swap-oob="true"><p>{}</p></div>',
        refused.message,
    )
    response = HttpResponse(html, status=refused.status)
    for name, value in refused.headers.items():
        response[name] = value
    return response


@require_POST
@login_or_guest_required
def send(request: HttpRequest, public_id: str) -> HttpResponse:
    asker = _asker(request, public_id)
    try:
        quick_messages.send(asker.match, asker.seat, request.POST.get("message", ""))
    except Refused as refused:
        return _refused(request, public_id, refused)
    if getattr(request, "htmx", False):
        return HttpResponse(status=204)
    return redirect("games:table", public_id)


@require_POST
@login_or_guest_required
def mute(request: HttpRequest, public_id: str) -> HttpResponse:
    """``on=1`` mutes this match's quick messages for the reader, ``on=0`` shows them again."""
    asker = _asker(request, public_id)
    reader = quick_messages.reader_key(asker.seat, request.user)
    try:
        quick_messages.set_muted(asker.match, reader, request.POST.get("on") == "1")
    except Refused as refused:
        return _refused(request, public_id, refused)
    if not getattr(request, "htmx", False):
        return redirect("games:table", public_id)
    context = {"match": asker.match, "seat": asker.seat, "spectator": asker.seat is None}
    html = render_to_string("games/_quick_messages_region.html", context, request=request)
    return HttpResponse(html)
