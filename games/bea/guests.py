"""Playing Bea without an account.

A visitor's browser holds a guest key in an HttpOnly cookie, made and read by
``games.access`` like a private table's seat key; the guest's seat in each match against Bea
stores only its hash. So the same browser finds its matches again after a reload or a week
away, and nobody else can: the key is never shown to anyone, not even to the page's scripts.
Signing up from that browser hands the guest's matches (and with them the statistics, which
are counted from the seats) to the new account (``adopt``). Guest matches nobody has touched
for ``EXPIRE_AFTER_DAYS`` are deleted by ``manage.py expire_tables`` (``expire``), and those
nobody ever moved in after ``UNPLAYED_AFTER_DAYS``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from games import lookups, services
from games.access import hash_key
from games.models import Match, Seat
from ginsite.lib.refusals import Refused

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

EXPIRE_AFTER_DAYS = 30
# A match nobody has made a move in (a click on "Play Bea now" and no more) is kept one day.
UNPLAYED_AFTER_DAYS = 1


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
    admit: Callable[[], None] | None = None,
) -> Match:
    """A match of the guest holding ``key`` (seat 0) against Bea (seat 1). One at a time, as
    for players: with one still running, ``services.BeaMatchRunning`` unless
    ``replace_running``, which abandons it (it counts as lost). ``admit`` as for players."""
    from games.ai import LEVELS

    if level not in LEVELS:
        raise Refused(_("Unknown level for Bea."))
    rules = services.ruleset(preset, target)
    with transaction.atomic():
        lookups.lock_guest(hash_key(key))  # as a player's row: starts of one guest take turns
        running = running_match(key)
        if running is not None and not replace_running:
            raise services.BeaMatchRunning(running)
        if admit is not None:
            admit()
        if running is not None:
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


def _idle_since(cutoff: Any) -> Any:
    """Guest matches against Bea with no activity (a move, a page's heartbeat or visit, the
    match's creation) since ``cutoff``."""
    return (
        Match.objects.filter(kind=Match.Kind.BEA, seats__kind=Seat.Kind.GUEST)
        .annotate(last_seen=Max("seats__last_seen"), last_active=Max("seats__last_active"))
        .filter(updated_at__lt=cutoff)
        # Never seen counts as long ago (an exclude would drop the NULLs too).
        .filter(Q(last_seen__isnull=True) | Q(last_seen__lt=cutoff))
        .filter(Q(last_active__isnull=True) | Q(last_active__lt=cutoff))
    )


def expire(now: Any = None, days: int = EXPIRE_AFTER_DAYS) -> int:
    """Delete the guest matches against Bea with no activity for ``days`` days, and those
    nobody ever made a move in after ``UNPLAYED_AFTER_DAYS``; the number deleted."""
    now = now or timezone.now()
    stale = set(_idle_since(now - timedelta(days=days)).values_list("pk", flat=True))
    unplayed = _idle_since(now - timedelta(days=min(days, UNPLAYED_AFTER_DAYS))).filter(version=0)
    ids = stale | set(unplayed.values_list("pk", flat=True))
    if ids:
        Match.objects.filter(pk__in=ids).delete()
    return len(ids)
