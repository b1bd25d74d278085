"""Who is in the lobby, and who is busy in a lobby match: read-only questions, asked by the
lobby's services, its pages, its API and its event streams; and the one shared note the
streams read to say, at most every few seconds, how many are online."""

from __future__ import annotations

import time
from datetime import datetime, timedelta
from typing import Any

from django.core.cache import cache
from django.db.models import Q
from django.utils import timezone

from games.presence import LOBBY_MATCH_IDLE, in_lobby_match
from lobby.models import Block, Presence

# A page that has not said anything for this long is gone, whether or not its close arrived.
PRESENCE_TTL = timedelta(seconds=45)
# Games decides who is busy in a lobby match (it refuses to seat anyone twice); the lobby shows it.
MATCH_IDLE = LOBBY_MATCH_IDLE


def online_user_ids(now: datetime | None = None) -> set[int]:
    cutoff = (now or timezone.now()) - PRESENCE_TTL
    return set(
        Presence.objects.filter(last_seen__gt=cutoff).values_list("user_id", flat=True).distinct()
    )


def is_online(user_id: int, now: datetime | None = None) -> bool:
    cutoff = (now or timezone.now()) - PRESENCE_TTL
    return Presence.objects.filter(user_id=user_id, last_seen__gt=cutoff).exists()


def hidden_from(user_id: int) -> set[int]:
    """The players ``user_id`` does not see in the lobby and is not seen by: those they
    blocked and those who blocked them. The one rule of the HTML lobby, the API and the
    challenge refusal: a block works both ways and shows nowhere, so a blocked player cannot
    tell it from the other being away."""
    pairs = Block.objects.filter(Q(blocker_id=user_id) | Q(blocked_id=user_id)).values_list(
        "blocker_id", "blocked_id"
    )
    return {other for pair in pairs for other in pair if other != user_id}


def busy_user_ids(now: datetime | None = None) -> set[int]:
    """Players seated in a lobby match that is still going (and not long abandoned)."""
    return in_lobby_match(now=now)


# The streams' presence line: how many are online and since when, kept in the shared cache
# by whoever changed it. One small note, read by every stream at its own pace: a connect costs
# O(1), not a message to everyone online.
SNAPSHOT_KEY = "lobby:presence"


def note_change() -> None:
    """Who is in the lobby changed: update the note the event streams read."""
    cutoff = timezone.now() - PRESENCE_TTL
    online = Presence.objects.filter(last_seen__gt=cutoff).values("user_id").distinct().count()
    cache.set(SNAPSHOT_KEY, {"at": time.time(), "online": online}, timeout=None)


def snapshot() -> dict[str, Any] | None:
    """The latest note: ``{"at": unix time, "online": count}``, or None before any change."""
    return cache.get(SNAPSHOT_KEY)  # type: ignore[no-any-return]
