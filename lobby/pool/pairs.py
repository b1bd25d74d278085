"""Choosing the pairs of the quick-pairing pool (no database): who may play whom, the window of
ratings that widens while a player waits, and the pairs a pass seats.

``Pool.pairs`` takes the players in the order they joined, and gives each the waiting player
of the nearest rating who fits, ties going to whoever has waited longer. It looks for that
player outward from the rating, in each game's own list sorted by rating, and stops at the
widest window there is: a pass over 500 waiting players with equal ratings looks at a few
players each, not at all 500 (docs/performance.md, the pool).
"""

from __future__ import annotations

import bisect
import heapq
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cached_property
from itertools import groupby, takewhile
from typing import Any

from lobby.models import PoolEntry

WINDOW_START = 100
WINDOW_MAX = 500
WIDEN_OVER = timedelta(seconds=30)


def window(joined_at: datetime, now: datetime) -> int:
    """How far from a player's rating they are paired, after waiting since ``joined_at``:
    +-100 at first, growing evenly to +-500 over 30 seconds."""
    waited = max(0.0, (now - joined_at) / WIDEN_OVER)
    return round(WINDOW_START + (WINDOW_MAX - WINDOW_START) * min(1.0, waited))


def game_of(entry: PoolEntry) -> tuple[Any, ...]:
    """What two entries must share to be paired: the rules, rated or not, the days per move."""
    return (entry.preset, entry.target, entry.rated, entry.days_per_move)


def again(a: PoolEntry, b: PoolEntry) -> bool:
    """Whether ``a`` and ``b`` were each other's last opponent."""
    return a.previous_opponent_id == b.user_id or b.previous_opponent_id == a.user_id


@dataclass(frozen=True)
class Pool:
    """What a pass knows: the waiting entries, oldest first, and who blocked whom; ``widen``
    is how the window grows with the time waited (quick pairing's ``window``; an arena's keeps
    growing past ``WINDOW_MAX``, ``lobby.arena.pairing.arena_window``)."""

    entries: list[PoolEntry]
    blocked: frozenset[tuple[int, int]]
    now: datetime
    widen: Callable[[datetime, datetime], float] = window

    @cached_property
    def windows(self) -> dict[int, float]:
        return {e.pk: self.widen(e.joined_at, self.now) for e in self.entries}

    @cached_property
    def widest(self) -> float:
        """Nobody further away than the widest window of this pass can be near."""
        return max(self.windows.values(), default=0)

    def fits(self, a: PoolEntry, b: PoolEntry) -> bool:
        """Whether ``a`` and ``b`` may play each other at all (the window aside)."""
        return (
            game_of(a) == game_of(b)
            and a.user_id != b.user_id
            and (a.user_id, b.user_id) not in self.blocked
            and (a.is_bot == b.is_bot or (b.allow_bots if a.is_bot else a.allow_bots))
        )

    def near(self, a: PoolEntry, b: PoolEntry) -> bool:
        wider = max(self.windows[a.pk], self.windows[b.pk])
        return abs(a.rating - b.rating) <= wider

    def pairs(self) -> list[tuple[PoolEntry, PoolEntry]]:
        """Pairs to seat, the player waiting longest first (seat 0 of each pair)."""
        games: dict[tuple[Any, ...], _Waiting] = {}
        for entry in self.entries:
            games.setdefault(game_of(entry), _Waiting()).add(entry)
        found = []
        for me in self.entries:
            waiting = games[game_of(me)]
            if me.pk not in waiting.by_pk:
                continue  # paired earlier in this pass
            other = self._best_for(me, waiting)
            if other is not None:
                waiting.remove(me)
                waiting.remove(other)
                found.append((me, other) if me.joined_at <= other.joined_at else (other, me))
        return found

    def _best_for(self, me: PoolEntry, waiting: _Waiting) -> PoolEntry | None:
        """The nearest rating within the window, ties to the longest waiting; the player ``me``
        was paired with last time only when nobody else waits for the same game."""
        again_near = []
        for other in waiting.outward(me.rating, self.widest):
            if other.pk == me.pk or not self.fits(me, other) or not self.near(me, other):
                continue
            if not again(me, other):
                return other
            again_near.append(other)
        if not again_near:
            return None
        # Only players met last time are near: they count only if nobody else fits at all.
        if any(
            self.fits(me, o) and not again(me, o) for o in waiting.by_pk.values() if o.pk != me.pk
        ):
            return None
        return again_near[0]


class _Waiting:
    """The unpaired entries of one game, sorted by rating, then by time waited."""

    def __init__(self) -> None:
        self.by_pk: dict[int, PoolEntry] = {}
        self.keys: list[tuple[float, datetime, int]] = []

    @staticmethod
    def _key(entry: PoolEntry) -> tuple[float, datetime, int]:
        return (entry.rating, entry.joined_at, entry.pk)

    def add(self, entry: PoolEntry) -> None:
        self.by_pk[entry.pk] = entry
        bisect.insort(self.keys, self._key(entry))

    def remove(self, entry: PoolEntry) -> None:
        del self.by_pk[entry.pk]
        del self.keys[bisect.bisect_left(self.keys, self._key(entry))]

    def outward(self, rating: float, widest: float) -> Iterator[PoolEntry]:
        """The entries within ``widest`` of ``rating``, nearest first, then the longest
        waiting first: the ones below and the ones above, merged in that order."""
        middle = bisect.bisect_left(self.keys, (rating,))
        down = (self.keys[i] for i in range(middle - 1, -1, -1))
        up = (self.keys[i] for i in range(middle, len(self.keys)))
        below = takewhile(lambda k: rating - k[0] <= widest, down)
        above = takewhile(lambda k: k[0] - rating <= widest, up)
        # Above, the sorted order is already nearest first, then longest waiting.
        for key in heapq.merge(_by_wait(below), above, key=lambda k: (abs(k[0] - rating), k[1:])):
            yield self.by_pk[key[2]]


def _by_wait(keys: Iterable[tuple[float, datetime, int]]) -> Iterator[tuple[float, datetime, int]]:
    """Keys below a rating, which come nearest rating first but each rating's run backwards,
    with each run put in the order of time waited."""
    for _rating, run in groupby(keys, key=lambda k: k[0]):
        yield from sorted(run)
