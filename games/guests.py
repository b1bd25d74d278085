"""Playing Bea without an account.

A visitor's browser holds a guest key in an HttpOnly cookie (``private.GUEST_COOKIE``), made
like a private table's seat key; the guest's seat in each match against Bea stores only its
hash. So the same browser finds its matches again after a reload or a week away, and nobody
else can: the key is never shown to anyone, not even to the page's scripts. Signing up from
that browser hands the guest's matches (and with them the statistics, which are counted from
the seats) to the new account (``adopt``). Guest matches nobody has touched for
``EXPIRE_AFTER_DAYS`` are deleted by ``manage.py expire_tables`` (``expire``).
"""

from __future__ import annotations

import contextlib
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from games import services
from games.models import Match, Seat
from games.private import GUEST_COOKIE, MAX_KEY_CHARS, hash_key, new_key, set_key_cookie
from ginsite.refusals import Refused

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser
    from django.http import HttpRequest, HttpResponse

EXPIRE_AFTER_DAYS = 30
# Renewed by every visit of a guest's table or the home page; outlives any match in use.
COOKIE_MAX_AGE = 60 * 60 * 24 * EXPIRE_AFTER_DAYS


def key_of(request: HttpRequest) -> str | None:
    """The guest key this browser holds, if any."""
    key = request.COOKIES.get(GUEST_COOKIE, "")
    return key if key and len(key) <= MAX_KEY_CHARS else None


def key_for(request: HttpRequest) -> str:
    """This browser's guest key, or a new one (then ``set_cookie`` must store it)."""
    return key_of(request) or new_key()


def set_cookie(response: HttpResponse, request: HttpRequest, key: str) -> None:
    """Kept like a private table's seat key (``private.set_key_cookie``)."""
    set_key_cookie(response, request, GUEST_COOKIE, key, COOKIE_MAX_AGE)


def _mine(key: str) -> Q:
    return Q(seats__kind=Seat.Kind.GUEST, seats__guest_key_hash=hash_key(key))


def is_guest_match(match: Match) -> bool:
    """A match against Bea whose player has no account."""
    return match.kind == Match.Kind.BEA and any(
        s.kind == Seat.Kind.GUEST for s in match.seats.all()
    )


def running_match(key: str | None) -> Match | None:
    """The guest's match against Bea still in progress, if any (the newest)."""
    if not key:
        return None
    return (
        Match.objects.filter(_mine(key), kind=Match.Kind.BEA, status=Match.Status.ACTIVE)
        .prefetch_related("seats__user")
        .order_by("-updated_at")
        .first()
    )


def owned(key: str | None, public_id: str) -> Match | None:
    """The guest's match of that id, or None."""
    if not key or not public_id:
        return None
    return Match.objects.filter(_mine(key), public_id=public_id).first()


def start(
    key: str,
    preset: str = "standard",
    target: int = 100,
    level: str = "medium",
    *,
    replace_running: bool = False,
    previous: Match | None = None,
    deck: list[str] | None = None,
) -> Match:
    """A match of the guest holding ``key`` (seat 0) against Bea (seat 1). One at a time, as
    for players: with one still running, ``services.BeaMatchRunning`` unless
    ``replace_running``, which abandons it (it counts as lost)."""
    from games.ai import LEVELS

    if level not in LEVELS:
        raise Refused(_("Unknown level for Bea."))
    rules = services.ruleset(preset, target)
    running = running_match(key)
    if running is not None:
        if not replace_running:
            raise services.BeaMatchRunning(running)
        with contextlib.suppress(services.MatchClosed):  # it ended meanwhile
            services.abandon(running, 0, services.CURRENT)
        previous = running
    return services.create_match(
        Match.Kind.BEA,
        rules,
        (
            services.SeatSpec(Seat.Kind.GUEST, guest_key_hash=hash_key(key)),
            services.SeatSpec(Seat.Kind.BEA, bea_level=level),
        ),
        previous=previous,
        deck=deck,
    )


def adopt(key: str | None, user: AbstractBaseUser) -> int:
    """The guest's matches against Bea become ``user``'s: each guest seat turns into the
    player's seat (statistics are counted from seats, so they follow). The number of matches."""
    if not key:
        return 0
    with transaction.atomic():
        return Seat.objects.filter(
            kind=Seat.Kind.GUEST,
            guest_key_hash=hash_key(key),
            match__kind=Match.Kind.BEA,
        ).update(kind=Seat.Kind.PLAYER, user=user, guest_key_hash="")


def expire(now: Any = None, days: int = EXPIRE_AFTER_DAYS) -> int:
    """Delete the guest matches against Bea with no activity (a move, an open page's
    heartbeat, the match's creation) for ``days`` days; the number deleted."""
    now = now or timezone.now()
    cutoff = now - timedelta(days=days)
    stale = (
        Match.objects.filter(kind=Match.Kind.BEA, seats__kind=Seat.Kind.GUEST)
        .annotate(last_seen=Max("seats__last_seen"), last_active=Max("seats__last_active"))
        .filter(updated_at__lt=cutoff)
        # Never seen counts as long ago (an exclude would drop the NULLs too).
        .filter(Q(last_seen__isnull=True) | Q(last_seen__lt=cutoff))
        .filter(Q(last_active__isnull=True) | Q(last_active__lt=cutoff))
    )
    ids = list(stale.values_list("pk", flat=True))
    if ids:
        Match.objects.filter(pk__in=ids).delete()
    return len(ids)
