"""Where the moderation room hangs onto the rest of the site, connected in its
``AppConfig.ready``: games asks whether a player is muted (``quick_messages.silenced``) and
what links go beside a seat's name (``extras.seat_links``: "Report" beside the opponent's);
allauth tells of each sign-up, whose client address is kept for moderators."""

from __future__ import annotations

import ipaddress
from typing import Any

from allauth.account.signals import user_signed_up
from django.http import HttpRequest
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _

from games.live import quick_messages
from games.models import Match, Seat
from games.table import add_ons as extras
from lobby.moderation.sanctions.standing import why_silent

from .models import SignupAddress

# Where two people play each other (Bea, one device and the lessons have nobody to report).
REPORTABLE_KINDS = (Match.Kind.LOBBY, Match.Kind.PRIVATE)


def silenced(sender: Any, user_id: int, **kwargs: Any) -> str | None:
    return why_silent(user_id)


def report_link(match: Match, reader: int | None) -> dict[int, list[tuple[str, str]]]:
    """Beside the opponent's name, for the player in seat ``reader``: a link to report them,
    with the match attached."""
    if reader is None or match.kind not in REPORTABLE_KINDS:
        return {}
    seats = {s.number: s for s in match.seats.all()}
    mine, theirs = seats.get(reader), seats.get(1 - reader)
    if mine is None or theirs is None or mine.user_id is None:
        return {}
    if theirs.kind != Seat.Kind.PLAYER or theirs.user_id is None:
        return {}
    page = reverse("moderation:report", args=[theirs.user.get_username()])
    url = f"{page}?{urlencode({'match': match.public_id})}"
    return {theirs.number: [(url, _("Report"))]}


def on_signed_up(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    # The client's address (behind a proxy, ginsite.serving.proxy makes REMOTE_ADDR so):
    # accounts made from one address are what a farm looks like (docs/moderation.md).
    address = str(request.META.get("REMOTE_ADDR") or "") if request is not None else ""
    try:
        ipaddress.ip_address(address)
    except ValueError:
        return  # none, or not an address (a test client's "unknown"): nothing to keep
    SignupAddress.objects.update_or_create(user=user, defaults={"address": address})


def connect() -> None:
    quick_messages.silenced.connect(silenced, dispatch_uid="moderation.silenced")
    if report_link not in extras.seat_links:
        extras.seat_links.append(report_link)
    user_signed_up.connect(on_signed_up, dispatch_uid="moderation.signed_up")
