"""The lesson's doors: take it (again), leave it, say "no thanks" to the offer.

The lesson itself is played on the table's own views (``games.views``): its moves are the
table's moves, which the door admits only when they follow the script.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import guests, private
from games.models import Match
from ginsite.htmx import go_to

from . import matches


@require_POST
def start(request: HttpRequest) -> HttpResponse:
    """A new lesson for this browser (signed in or not), in place of any earlier one."""
    key = guests.key_for(request)
    match = matches.start(key)
    response = go_to(request, reverse("games:table", args=[match.public_id]))
    guests.set_cookie(response, request, key)
    return response


@require_POST
def leave(request: HttpRequest, public_id: str) -> HttpResponse:
    """Leave the lesson at any step, back to the home page (which offers it again)."""
    match = get_object_or_404(
        Match.objects.prefetch_related("seats"), public_id=public_id, kind=Match.Kind.LESSON
    )
    seat = private.seat_for(match, request.user, request.COOKIES)
    if seat is None:
        raise Http404(_("No such lesson."))
    matches.leave(match, seat)
    return go_to(request, reverse("home"))


@require_POST
def decline(request: HttpRequest) -> HttpResponse:
    """No thanks: the home page stops offering the lesson (the rules page still has it)."""
    response = go_to(request, reverse("home"))
    matches.decline(response, request)
    return response
