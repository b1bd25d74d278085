"""Counting in fixed windows of the shared cache: the API's rate limits, failed
authentication per address, challenges per sender and per target.

The cache is Redis with ``REDIS_URL``, so every server process counts together; embedded, the
local-memory cache is the whole site's.
"""

from __future__ import annotations

import math
import time

from django.conf import settings
from django.core.cache import cache


def _window(window: int) -> tuple[int, int]:
    """The current window's number and the whole seconds until it ends (at least 1)."""
    now = time.time()
    bucket = int(now // window)
    return bucket, max(1, math.ceil((bucket + 1) * window - now))


def hit(ident: str, window: int) -> tuple[int, int]:
    """Count one more of ``ident`` in the current window: how many so far (this one included)
    and the seconds until the window ends."""
    bucket, retry = _window(window)
    key = f"limit:{ident}:{bucket}"
    count_up = getattr(cache, "count_up", None)
    if count_up is not None:  # Redis (ginsite.serving.rediscache): one round trip
        return count_up(key, window + 5), retry
    cache.add(key, 0, timeout=window + 5)
    try:
        count = int(cache.incr(key))
    except ValueError:  # expired between add and incr
        cache.set(key, 1, timeout=window + 5)
        count = 1
    return count, retry


def count(ident: str, window: int) -> tuple[int, int]:
    """How many of ``ident`` the current window holds, without adding one; and the seconds
    until it ends."""
    bucket, retry = _window(window)
    return int(cache.get(f"limit:{ident}:{bucket}", 0)), retry


def over(ident: str, limit: int, window: int) -> int | None:
    """Count one more of ``ident``: None while within ``limit`` in the current window, else
    the seconds until the window ends (what to put in ``Retry-After``)."""
    count, retry = hit(ident, window)
    return retry if count > limit else None


def cooldown(ident: str, seconds: int) -> int | None:
    """At most one of ``ident`` per ``seconds``, however the windows fall: None (and the
    quiet time starts now) when none is running, else the whole seconds left of it (at
    least 1, what to put in ``Retry-After``)."""
    key = f"cooldown:{ident}"
    until = time.time() + seconds
    if cache.add(key, until, timeout=seconds):
        return None
    held = cache.get(key)
    return max(1, math.ceil(float(held) - time.time())) if held is not None else 1


# --- The API's budget, for the API and the pages alike -------------------------------------------


def player_ident(user_id: int) -> str:
    """One player's count: all their tokens, their session, their pages' extra requests."""
    return f"api-rate:user:{user_id}"


def over_budget(ident: str) -> int | None:
    """Count one request of ``ident`` against the API's budget (``API_RATE_LIMIT`` every
    ``API_RATE_WINDOW`` seconds): None within it, else the seconds until the window ends."""
    return over(ident, settings.API_RATE_LIMIT, settings.API_RATE_WINDOW)
