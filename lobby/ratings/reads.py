"""What players see of ratings: a player's ratings, their history, the leaderboards."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.core.cache import cache
from django.db.models import Count
from django.utils import timezone

from games.engine import PRESETS
from lobby.moderation.models import RatingRefund

from .glicko import PROVISIONAL_RD
from .models import Rating, RatingChange

PRESET_ORDER = ("standard", "classic", "simple")
assert set(PRESET_ORDER) == set(PRESETS)


def ratings_of(user: Any) -> dict[str, Rating]:
    """The player's rating in every preset, in PRESET_ORDER (the starting "1500?" where they
    have played no rated match). Each has ``display`` ("1532", or "1500?" while provisional),
    ``rounded``, ``rd``, ``provisional`` and ``games``."""
    return ratings_of_many([user.pk])[user.pk]


def ratings_of_many(user_ids: list[int]) -> dict[int, dict[str, Rating]]:
    """``ratings_of`` for several players in one query."""
    found: dict[int, dict[str, Rating]] = {
        uid: {p: Rating(user_id=uid, preset=p) for p in PRESET_ORDER} for uid in user_ids
    }
    for row in Rating.objects.filter(user_id__in=user_ids, preset__in=PRESET_ORDER):
        found[row.user_id][row.preset] = row
    return found


def display_of_many(user_ids: list[int], preset: str) -> dict[int, str]:
    """Each player's rating in one preset as shown ("1500?" without a row)."""
    shown = {uid: Rating(user_id=uid, preset=preset).display for uid in user_ids}
    for row in Rating.objects.filter(user_id__in=user_ids, preset=preset):
        shown[row.user_id] = row.display
    return shown


def history(user: Any, preset: str) -> list[RatingChange | RatingRefund]:
    """The player's rated results in one preset, oldest first, and among them the refunds a
    moderator's closure of an opponent gave them (``lobby.moderation.sanctions.refunds``; each has
    ``kind`` "refund" where a result has none)."""
    found = RatingChange.objects.filter(user_id=user.pk, preset=preset)
    results = list(found.select_related("opponent", "match").order_by("created_at", "pk"))
    refunds = RatingRefund.objects.filter(user_id=user.pk, preset=preset)
    given = list(refunds.select_related("closed_account").order_by("created_at", "pk"))
    if not given:
        return results
    return sorted([*results, *given], key=lambda item: item.created_at)


def change_in(match_id: int, user_id: int) -> RatingChange | None:
    return RatingChange.objects.filter(match_id=match_id, user_id=user_id).first()


# --- Leaderboards ---------------------------------------------------------------------------------

LEADERS = 50
PAGE = 25
MIN_RECENT = 10
RECENT = timedelta(days=30)
# Ratings change at the end of a rated match; a board a minute old is good enough, and every
# rated result drops the board of its preset (``forget_leaders``), and a closed account every
# board (``forget_all_leaders``, from ``lobby.subscribers``).
LEADERS_TTL = 60


@dataclass(frozen=True)
class Leader:
    rank: int
    username: str
    display_name: str
    rating: int
    rd: int
    provisional: bool  # never, on the board (it takes established players): said all the same
    display: str
    recent: int  # rated matches in the last 30 days
    bot: bool  # plays through a bot (the BOT badge)


def _cache_key(preset: str) -> str:
    # v3: a Leader has ``provisional`` and ``display``; a board cached by the code before must
    # not be read as one.
    return f"ratings:leaders:v3:{preset}"


def leaders(preset: str) -> list[Leader]:
    """The top LEADERS in ``preset`` among established players (deviation below 110) with at
    least MIN_RECENT rated matches in the last 30 days; best first. Cached."""
    cached = cache.get(_cache_key(preset))
    if cached is None:
        cached = _leaders(preset)
        cache.set(_cache_key(preset), cached, LEADERS_TTL)
    return list(cached)


def forget_leaders(preset: str) -> None:
    cache.delete(_cache_key(preset))


def forget_all_leaders() -> None:
    cache.delete_many([_cache_key(preset) for preset in PRESET_ORDER])


def _leaders(preset: str) -> list[Leader]:
    since = timezone.now() - RECENT
    counts = (
        RatingChange.objects.filter(preset=preset, created_at__gte=since)
        .values("user_id")
        .annotate(n=Count("pk"))
        .filter(n__gte=MIN_RECENT)
    )
    recent = {row["user_id"]: row["n"] for row in counts}
    eligible = list(recent)
    rows = (
        Rating.objects.filter(
            preset=preset, user_id__in=eligible, rd__lt=PROVISIONAL_RD, user__is_active=True
        )
        .select_related("user__profile")
        .order_by("-rating", "user_id")[:LEADERS]
    )
    return [
        Leader(
            rank=n,
            username=row.user.get_username(),
            display_name=row.user.profile.display_name,
            rating=row.rounded,
            rd=round(row.rd),
            provisional=row.provisional,
            display=row.display,
            recent=recent[row.user_id],
            bot=row.user.profile.plays_by_bot,
        )
        for n, row in enumerate(rows, start=1)
    ]


def leaders_page(preset: str, page: int) -> tuple[list[Leader], int]:
    """One page (from 1) of the leaderboard and how many pages it has (at least 1)."""
    everyone = leaders(preset)
    pages = max(1, -(-len(everyone) // PAGE))
    start = (page - 1) * PAGE
    return everyone[start : start + PAGE], pages
