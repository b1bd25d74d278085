"""How far from their rating an arena's free player is paired, after waiting a while: quick
pairing's window (+-100, widening to +-500 over 30 seconds), then wider still, so that nobody
in an arena waits for long just because nobody near their rating is free (lichess's arenas pair
whoever is free): +-500 to +-2000 over the next 30 seconds, and anyone after a minute."""

from __future__ import annotations

import math
from datetime import datetime

from lobby.pool.pairs import WIDEN_OVER, WINDOW_MAX, window

WIDE = 2000
WIDE_AFTER = 2 * WIDEN_OVER  # a minute: anyone free is near enough
ANYONE = math.inf


def arena_window(joined_at: datetime, now: datetime) -> float:
    waited = now - joined_at
    if waited <= WIDEN_OVER:
        return window(joined_at, now)
    if waited >= WIDE_AFTER:
        return ANYONE
    share = (waited - WIDEN_OVER) / (WIDE_AFTER - WIDEN_OVER)
    return round(WINDOW_MAX + (WIDE - WINDOW_MAX) * share)
