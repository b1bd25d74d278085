"""Lessons as matches: starting one, leaving it, forgetting old ones, and whom to offer one.

A lesson belongs to the browser that takes it, signed in or not: its seat is a guest's, held by
the browser's guest key (``games.bea.guests``). No seat of a lesson is a player's, and every count
of matches (statistics, the profile's list, the lobby, completion, the API) counts players'
seats, so a lesson counts for nobody without any of them knowing of lessons. A browser keeps one
lesson: starting another deletes the earlier ones.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.db import transaction
from django.utils import timezone

from games import access, lookups, services
from games.access import hash_key
from games.models import Match, Seat

from .script import DECK, FAIR, LEVEL, PRESET, SEED, TARGET

if TYPE_CHECKING:
    from django.db.models import QuerySet
    from django.http import HttpRequest, HttpResponse

# A lesson nobody has touched for a day is gone: it takes a few minutes, and can be taken again.
EXPIRE_AFTER_DAYS = 1
# "No thanks" to the offer on the home page, remembered by this browser.
DECLINED_COOKIE = "gin_lesson_declined"
DECLINED_MAX_AGE = 60 * 60 * 24 * 365


def _lessons_of(key: str) -> QuerySet[Match]:
    return Match.objects.filter(
        kind=Match.Kind.LESSON,
        seats__kind=Seat.Kind.GUEST,
        seats__guest_key_hash=hash_key(key),
    )


def start(key: str, admit: Callable[[], None] | None = None) -> Match:
    """A new lesson for the browser holding guest key ``key``, in place of its earlier ones.
    ``admit`` runs before anything changes (the door's limits, ``games.bea.limits``)."""
    rules = services.ruleset(PRESET, TARGET)
    with transaction.atomic():
        # Two starts of one browser take turns, so that it keeps one lesson.
        lookups.lock_guest(hash_key(key))
        if admit is not None:
            admit()
        Match.objects.filter(pk__in=list(_lessons_of(key).values_list("pk", flat=True))).delete()
        return services.create_match(
            Match.Kind.LESSON,
            rules,
            (
                services.SeatSpec(Seat.Kind.GUEST, guest_key_hash=hash_key(key)),
                services.SeatSpec(Seat.Kind.BEA, bea_level=LEVEL),
            ),
            deck=list(DECK),
            seed=SEED,
            # Both deals are the script's: nobody's seed may change them.
            fair=FAIR,
        )


def leave(match: Match, seat: int) -> None:
    """The learner leaves the lesson: it ends, through the door like any match that is left."""
    with contextlib.suppress(services.MatchClosed):  # already over: nothing to end
        services.abandon(match, seat, services.CURRENT)


def expire(now: datetime | None = None, days: int = EXPIRE_AFTER_DAYS) -> int:
    """Delete the lessons nobody has touched for ``days`` days; how many."""
    cutoff = (now or timezone.now()) - timedelta(days=days)
    stale = Match.objects.filter(kind=Match.Kind.LESSON, updated_at__lt=cutoff)
    ids = list(stale.values_list("pk", flat=True))
    if ids:
        Match.objects.filter(pk__in=ids).delete()
    return len(ids)


def has_played(request: HttpRequest) -> bool:
    """Has this visitor played a match (a lesson is not one): by account, or by this
    browser's guest key."""
    matches = Match.objects.exclude(kind=Match.Kind.LESSON)
    if request.user.is_authenticated and matches.filter(seats__user=request.user).exists():
        return True
    key = access.guest_key(request)
    return key is not None and matches.filter(seats__guest_key_hash=hash_key(key)).exists()


def offered(request: HttpRequest) -> bool:
    """The home page offers the lesson to a visitor who has not played yet and has not said
    "no thanks"."""
    return DECLINED_COOKIE not in request.COOKIES and not has_played(request)


def decline(response: HttpResponse, request: HttpRequest) -> None:
    response.set_cookie(
        DECLINED_COOKIE,
        "1",
        max_age=DECLINED_MAX_AGE,
        samesite="Lax",
        secure=request.is_secure(),
    )
