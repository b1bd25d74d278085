"""Gains from new accounts, limited (docs/moderation.md, "Rules of rated play").

A farm is many throw-away accounts losing to one player. Each costs an address and a day (or
three finished matches: ``eligibility``), but once made it is new: its rating says nothing
yet, so a win against it says little about the winner. A win against an account younger than
NEW_AGE, or with fewer than NEW_RESULTS rated results, raises the winner's rating by at most
what is left of a daily allowance of DAILY_ALLOWANCE points, summed over all such gains in the
last ALLOWANCE_WINDOW and all presets. The loser's result counts as usual, and the winner's
deviation and volatility move as Glicko-2 says: only the gain is limited.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.db.models import F, Sum

from .models import Rating, RatingChange

DAILY_ALLOWANCE = 50.0
ALLOWANCE_WINDOW = timedelta(days=1)
NEW_AGE = timedelta(days=7)
NEW_RESULTS = 10


def is_new(user_id: int, now: datetime) -> bool:
    """Whether the account is new for the allowance: younger than NEW_AGE, or with fewer than
    NEW_RESULTS rated results (in all presets) before the one being applied."""
    found = get_user_model().objects.filter(pk=user_id).values_list("date_joined", flat=True)
    joined = found.first()
    if joined is None or joined > now - NEW_AGE:
        return True
    played = Rating.objects.filter(user_id=user_id).aggregate(n=Sum("games"))["n"] or 0
    return played < NEW_RESULTS


def left(user_id: int, now: datetime) -> float:
    """What is left of the player's allowance: DAILY_ALLOWANCE less the gains applied against
    new accounts in the last ALLOWANCE_WINDOW."""
    used = RatingChange.objects.filter(
        user_id=user_id,
        new_opponent=True,
        created_at__gte=now - ALLOWANCE_WINDOW,
        after__gt=F("before"),
    ).aggregate(n=Sum(F("after") - F("before")))["n"]
    return max(0.0, DAILY_ALLOWANCE - (used or 0.0))


def limit(user_id: int, before: float, computed: float, now: datetime) -> tuple[float, bool]:
    """The rating to apply after a result against a new account, from Glicko-2's ``computed``
    one, and whether the gain was limited. A loss is never limited."""
    gain = computed - before
    if gain <= 0:
        return computed, False
    allowed = left(user_id, now)
    if gain <= allowed:
        return computed, False
    return before + allowed, True
