"""The one-time tips of a first match: what the gold edges are, what the number under a card
means. Shown beside the table (never over it) on a player's first match, once per browser: the
answer that shows them also sets a cookie that keeps them away afterwards."""

from __future__ import annotations

from typing import TYPE_CHECKING

from games import access
from games.bea import guests
from games.models import Match, Seat

if TYPE_CHECKING:
    from django.http import HttpRequest, HttpResponse

COOKIE = "gin_tips_seen"
COOKIE_MAX_AGE = 60 * 60 * 24 * 365 * 2


def _has_other_matches(request: HttpRequest, match: Match) -> bool:
    # A lesson (games.lesson) is not a match played: the tips still come with the first one.
    others = Match.objects.exclude(pk=match.pk).exclude(kind=Match.Kind.LESSON)
    if request.user.is_authenticated:
        return others.filter(seats__user=request.user, seats__kind=Seat.Kind.PLAYER).exists()
    key = access.guest_key(request)
    if key and guests.is_guest_match(match):
        return others.filter(seats__guest_key_hash=access.hash_key(key)).exists()
    # A friend's guest at a private table: this table is all we know of them.
    return False


def should_show(request: HttpRequest, match: Match) -> bool:
    """For a player at their first match, while it runs, until this browser has seen them."""
    if COOKIE in request.COOKIES or not match.is_active or match.kind == Match.Kind.LESSON:
        return False
    return not _has_other_matches(request, match)


def mark_seen(response: HttpResponse, request: HttpRequest) -> None:
    response.set_cookie(
        COOKIE, "1", max_age=COOKIE_MAX_AGE, samesite="Lax", secure=request.is_secure()
    )
