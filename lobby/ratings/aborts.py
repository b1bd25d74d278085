"""Aborts: a rated match a player ended before its first hand was over, counted against them
(docs/moderation.md, "Rules of rated play").

Such a match is rated for nobody (``results.settle``), which is what a player who looks at a
bad dealt hand and resigns would like; so the player who ended it (who resigned, walked out,
or let their time run out) gets an ``Abort``. From the third within ABORT_WINDOW they wait
before their next lobby match (a challenge sent or accepted, a seek posted or accepted, quick
pairing joined): FIRST_WAIT after the last abort, doubling with each further one, at most
LONGEST_WAIT, as lichess's playban does. Moderators read ``aborts_since``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ginsite.lib.refusals import Conflict, TooMany
from lobby.models import display_name_of

from .models import Abort
from .words import wait_words

ABORT_WINDOW = timedelta(days=1)
FREE_ABORTS = 2
FIRST_WAIT = timedelta(minutes=5)
LONGEST_WAIT = timedelta(hours=1)


class AbortWait(TooMany, code="abort_wait"):
    """A player who aborted too often waits before their next lobby match (429, with
    ``Retry-After``)."""


@dataclass(frozen=True)
class Wait:
    aborts: int  # within ABORT_WINDOW
    until: datetime

    def seconds(self, now: datetime) -> int:
        return max(1, math.ceil((self.until - now).total_seconds()))

    def message(self, now: datetime) -> str:
        return ngettext(
            "You ended %(n)s rated match before its first hand was over in the last 24 hours. "
            "You can start your next lobby match in %(time)s.",
            "You ended %(n)s rated matches before their first hand was over in the last 24 "
            "hours. You can start your next lobby match in %(time)s.",
            self.aborts,
        ) % {"n": self.aborts, "time": wait_words((self.until - now).total_seconds())}


def record(match_id: int, user_id: int) -> Abort:
    """In the transaction that ends the match: ``user_id`` aborted it."""
    return Abort.objects.create(match_id=match_id, user_id=user_id)


def aborts_since(user_id: int, since: datetime) -> QuerySet[Abort]:
    """The player's aborts since ``since``, oldest first, with their matches."""
    found = Abort.objects.filter(user_id=user_id, created_at__gte=since)
    return found.select_related("match").order_by("created_at", "pk")


def wait_of(user_id: int, now: datetime | None = None) -> Wait | None:
    """The wait the player is serving now, or None."""
    now = now or timezone.now()
    times = list(aborts_since(user_id, now - ABORT_WINDOW).values_list("created_at", flat=True))
    if len(times) <= FREE_ABORTS:
        return None
    doublings = len(times) - FREE_ABORTS - 1
    until = times[-1] + min(FIRST_WAIT * 2**doublings, LONGEST_WAIT)
    return Wait(len(times), until) if until > now else None


def check(user_id: int, others: Iterable[int] = ()) -> None:
    """``AbortWait`` while the asking player waits; ``Conflict`` while one of ``others``,
    whose match this would also start (a challenger, a seek's poster), does: they said so
    before their wait began. Of another player's wait, only that it is there."""
    now = timezone.now()
    wait = wait_of(user_id, now)
    if wait is not None:
        raise AbortWait(wait.message(now), wait.seconds(now))
    for other in others:
        if wait_of(other, now) is not None:
            user = get_user_model().objects.select_related("profile").get(pk=other)
            raise Conflict(
                _("%(name)s cannot start a new match right now. Try again later.")
                % {"name": display_name_of(user)}
            )
