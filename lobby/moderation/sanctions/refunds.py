"""Closing an account for rating abuse: its rated results are voided and its victims get their
points back, as lichess refunds (lila's ``RatingRefund``). docs/moderation.md, "Refunds".

In the transaction of the closure (``refund``):

- the victims are the still-open accounts that lost rating points to the closed account in
  rated matches of the last REFUND_DAYS days; for each victim and preset, the points lost
  there are added together;
- each gets back those points, at most REFUND_CAP, and never more than lifts them back to the
  highest rating they had before one of those matches (a victim who has climbed past it since
  gets nothing: the loss no longer keeps them down);
- the refund is added to their current rating (deviation and match count unchanged) and
  shown in their rating history as a refund (``RatingRefund``, read by
  ``lobby.ratings.reads.history``);
- the closed account's own ratings are set back to the start, so its rated wins no longer
  count for anything (they are kept in the closure's details, and lifting the closure gives
  them back: ``restore``; the refunds stay, since the victims did nothing wrong);
- every leaderboard is renewed once the closure commits.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from lobby.moderation.models import RatingRefund, Sanction
from lobby.ratings.models import Rating, RatingChange
from lobby.ratings.reads import PRESET_ORDER, forget_leaders

REFUND_DAYS = 7
REFUND_CAP = 150


def refund(closure: Sanction) -> dict[str, Any]:
    """Void the closed account's rated results and refund its victims (see the module): what
    was done, for the closure's details and the log."""
    closed = closure.user_id
    since = timezone.now() - timedelta(days=REFUND_DAYS)
    losses = _losses_to(closed, since)
    given = []
    for (victim, preset), (lost, top) in sorted(losses.items()):
        points = _give(closure, victim, preset, lost, top)
        if points:
            given.append({"user": victim, "preset": preset, "points": points})
    ratings = _reset(closed)
    transaction.on_commit(_forget_all_leaders)
    return {"ratings": ratings, "refunds": given, "since": since.isoformat()}


def _losses_to(closed: int, since: Any) -> dict[tuple[int, str], tuple[float, float]]:
    """For each (victim, preset): the points lost to ``closed`` since ``since``, and the
    highest rating the victim had before any of those matches."""
    rows = RatingChange.objects.filter(
        opponent_id=closed, created_at__gte=since, user__is_active=True
    ).values_list("user_id", "preset", "before", "after")
    found: dict[tuple[int, str], tuple[float, float]] = defaultdict(lambda: (0.0, 0.0))
    for user_id, preset, before, after in rows:
        lost, top = found[(user_id, preset)]
        found[(user_id, preset)] = (lost + max(0.0, before - after), max(top, before))
    return {key: value for key, value in found.items() if value[0] > 0}


def _give(closure: Sanction, victim: int, preset: str, lost: float, top: float) -> int:
    """Refund one victim in one preset: the whole points given (0 for none)."""
    row = Rating.objects.select_for_update().filter(user_id=victim, preset=preset).first()
    if row is None:
        return 0
    points = round(min(lost, REFUND_CAP, max(0.0, top - row.rating)))
    if points <= 0:
        return 0
    before = row.rating
    row.rating = before + points
    row.save(update_fields=["rating", "updated_at"])
    RatingRefund.objects.create(
        user_id=victim,
        closed_account_id=closure.user_id,
        closure=closure,
        preset=preset,
        points=points,
        before=before,
        after=row.rating,
    )
    return points


def _reset(closed: int) -> dict[str, list[float]]:
    """Set the closed account's ratings back to the start; what they were, by preset."""
    rows = Rating.objects.select_for_update().filter(user_id=closed)
    kept = {r.preset: [r.rating, r.rd, r.volatility, float(r.games)] for r in rows}
    Rating.objects.filter(user_id=closed).delete()
    return kept


def restore(closure: Sanction) -> None:
    """Lifting a closure for rating abuse gives the account its ratings back as they were."""
    for preset, (rating, rd, volatility, games) in (closure.details.get("ratings") or {}).items():
        Rating.objects.update_or_create(
            user_id=closure.user_id,
            preset=preset,
            defaults={"rating": rating, "rd": rd, "volatility": volatility, "games": int(games)},
        )
    transaction.on_commit(_forget_all_leaders)


def _forget_all_leaders() -> None:
    for preset in PRESET_ORDER:
        forget_leaders(preset)


def refunds_of(user_id: int, preset: str) -> list[RatingRefund]:
    """The refunds a player got in one preset, oldest first (their rating history shows them)."""
    found = RatingRefund.objects.filter(user_id=user_id, preset=preset)
    return list(found.select_related("closed_account").order_by("created_at", "pk"))
