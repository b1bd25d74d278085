"""A private table in the browser (``games.private.tables``): the host's choices, the invitation
link, and the second seat taken by the first visitor."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import access
from games.models import PrivateTable
from games.private import tables as private
from games.web import asker as page_asker
from games.web.responses import HtmxHttpRequest, table_response, watch_response
from ginsite.lib.refusals import Refused

if TYPE_CHECKING:
    pass


@require_http_methods(["GET", "POST"])
def private_new(request: HtmxHttpRequest) -> HttpResponse:
    """Play with a friend: the host's choices, then the table with its invitation link."""
    visitor = page_asker.visitor(request)
    form = private.PrivateTableForm(request.POST or None, guest=visitor.guest)
    if request.method != "POST" or not form.is_valid():
        status = 400 if request.method == "POST" else 200
        return render(request, "games/private_new.html", {"form": form}, status=status)
    data = form.cleaned_data
    table, _match, key = private.open_table(
        visitor.account,
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
    asker = page_asker.at(request, match)
    if asker.seat is not None:
        response = table_response(request, match, asker.seat)
        access.renew(response, request, asker)
        return response
    if private.open_seat(match) is not None:
        # Taking the seat is a POST: link previews in chat apps open the link with GET.
        host = next(s.display_name for s in match.seats.all() if not s.is_open)
        form = private.GuestNameForm() if page_asker.visitor(request).guest else None
        return _private_page(request, "private_join", table, 200, match=match, host=host, form=form)
    if asker.watcher:
        return watch_response(
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
    if page_asker.at(request, match).seat is not None:
        return redirect("games:private", token)
    user = page_asker.visitor(request).account
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
