"""The lesson's doors: take it (again), leave it, say "no thanks" to the offer.

The lesson itself is played on the table's own views (``games.web.views``): its moves are the
table's moves, which the door admits only when they follow the script.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import access
from games.bea import limits as starts
from games.models import Match
from games.web import asker as page_asker
from ginsite.lib.htmx import go_to

from . import matches


@require_POST
def start(request: HttpRequest) -> HttpResponse:
    """A new lesson for this browser (signed in or not), in place of any earlier one."""
    key = access.guest_key(request) or access.new_key()
    # Per browser (its key holds the lesson, signed in or not); per address for visitors
    # without an account, since every fresh browser is a new key.
    address = page_asker.visitor(request).address
    try:
        match = matches.start(
            key, starts.admit(f"browser:{access.hash_key(key)}", address, starts.LESSONS)
        )
    except starts.TooManyMatches as refused:
        context = {"message": refused.message}
        response = render(request, "games/refused.html", context, status=429)
        response["Retry-After"] = str(refused.retry_after)
        return response
    response = go_to(request, reverse("games:table", args=[match.public_id]))
    access.keep_guest_key(response, request, key)
    return response


@require_POST
def leave(request: HttpRequest, public_id: str) -> HttpResponse:
    """Leave the lesson at any step, back to the home page (which offers it again)."""
    asker = page_asker.find(request, public_id, Match.Kind.LESSON, missing=_("No such lesson."))
    if asker.seat is None:
        raise Http404(_("No such lesson."))
    matches.leave(asker.match, asker.seat)
    return go_to(request, reverse("home"))


@require_POST
def decline(request: HttpRequest) -> HttpResponse:
    """No thanks: the home page stops offering the lesson (the rules page still has it)."""
    response = go_to(request, reverse("home"))
    matches.decline(response, request)
    return response
