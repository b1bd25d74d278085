"""Arenas' pairing pass: quick pairing's choice (``lobby.pool.pairs.Pool``) over an arena's
free players, each an entry waiting since they became free, with their rating when they joined
and their last opponent; the pairs seated a batch to a transaction that takes their players'
account rows (``lock_players``, those nobody else holds) and re-reads their arena rows: only
players still free, not paused and in no live lobby match sit down (docs/arenas.md)."""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from games.models import Match
from games.services import lock_players
from lobby.broadcast import send_to_match
from lobby.events import feeds
from lobby.events import log as event_log
from lobby.models import Block, PoolEntry
from lobby.pool.pairs import WIDEN_OVER, WINDOW_MAX, Pool, window
from lobby.pool.service import paired_json
from lobby.presence import busy_user_ids
from lobby.services.pairing import new_match, withdraw_elsewhere

from .models import RUNNING, Arena, ArenaMatch, ArenaPlayer, phase
from .push import arena_changed
from .standings import counted_players

# How far from their rating an arena's free player is paired, after waiting a while: quick
# pairing's window (+-100, widening to +-500 over 30 seconds), then wider still, so that nobody
# in an arena waits for long just because nobody near their rating is free (lichess's arenas pair
# whoever is free): +-500 to +-2000 over the next 30 seconds, and anyone after a minute.
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


# Pairs seated in one transaction (as the pool's SEAT_BATCH).
SEAT_BATCH = 25


def pair(arena: Arena, now: datetime | None = None, *, wake: bool = True) -> list[Match]:
    """One pairing pass over the arena's free players: the matches started. One pass per arena
    at a time on every worker (a cache lock); a pass that finds one running leaves its players
    to it and (``wake``) to the sweep it wakes (the sweep itself goes on at its next tick)."""
    now = now or timezone.now()
    if phase(arena, now) != RUNNING:
        return []
    started: list[Match] = []
    with _one_pass(arena) as mine:
        if not mine:
            if wake:
                wake_sweep()
            return []
        for _round in range(5):
            pairs = _read(arena, now).pairs()
            seated = []
            for first in range(0, len(pairs), SEAT_BATCH):
                seated += _seat(arena, pairs[first : first + SEAT_BATCH], now)
            started += seated
            if not seated:
                break
    return started


@contextmanager
def _one_pass(arena: Arena) -> Iterator[bool]:
    key = f"arena:pass:{arena.pk}"
    got = cache.add(key, 1, timeout=30)
    try:
        yield got
    finally:
        if got:
            cache.delete(key)


def wake_sweep() -> None:
    from games.outbox import sweeper

    sweeper.wake()


def _entry(arena: Arena, player: ArenaPlayer) -> PoolEntry:
    """The free player as quick pairing's chooser sees a waiting entry (a bot by their profile
    now: an account switched to a bot after it joined is one)."""
    assert player.free_since is not None
    return PoolEntry(
        pk=player.pk,
        user_id=player.user_id,
        preset=arena.preset,
        target=arena.target,
        rated=arena.rated,
        days_per_move=None,
        allow_bots=arena.allow_bots,
        is_bot=plays_by_bot(player.user),
        rating=player.rating,
        previous_opponent_id=player.last_opponent_id,
        joined_at=max(player.free_since, arena.starts_at),
    )


def _read(arena: Arena, now: datetime) -> Pool:
    """The arena's free players as quick pairing's pool. Where bots may not play, an account
    that switched to playing through a bot after it joined is not paired (docs/arenas.md)."""
    free = counted_players(arena).filter(free_since__isnull=False, paused=False)
    players = list(free.select_related("user__profile").order_by("free_since", "pk"))
    if not arena.allow_bots:
        players = [p for p in players if not plays_by_bot(p.user)]
    users = [p.user_id for p in players]
    busy = busy_user_ids(now, among=users) if users else set()
    entries = [_entry(arena, p) for p in players if p.user_id not in busy]
    return Pool(entries, blocked_among(users), now, widen=arena_window)


def plays_by_bot(user: Any) -> bool:
    return bool(getattr(getattr(user, "profile", None), "plays_by_bot", False))


def blocked_among(users: list[int]) -> frozenset[tuple[int, int]]:
    blocks = Block.objects.filter(blocker_id__in=users, blocked_id__in=users)
    pairs = blocks.values_list("blocker_id", "blocked_id")
    return frozenset(p for a, b in pairs for p in ((a, b), (b, a)))


def _seat(arena: Arena, pairs: list[tuple[PoolEntry, PoolEntry]], now: datetime) -> list[Match]:
    with transaction.atomic():
        held = lock_players((e.user_id for pair in pairs for e in pair), skip_locked=True)
        pairs = [(a, b) for a, b in pairs if {a.user_id, b.user_id} <= held]
        ids = [e.pk for pair in pairs for e in pair]
        rows = ArenaPlayer.objects.select_for_update().in_bulk(ids)
        busy = busy_user_ids(among=[e.user_id for pair in pairs for e in pair])
        ready = [
            (a, b)
            for a, b in pairs
            if all(
                rows[e.pk].free_since is not None
                and not rows[e.pk].paused
                and not rows[e.pk].removed
                and e.user_id not in busy
                for e in (a, b)
            )
        ]
        if not ready:
            return []
        players = [e.user_id for pair in ready for e in pair]
        users = get_user_model().objects.select_related("profile").in_bulk(players)
        started = []
        for a, b in ready:
            with feeds.seating_for(arena.public_id):
                match = new_match(
                    users[a.user_id],
                    users[b.user_id],
                    arena.preset,
                    arena.target,
                    rated=arena.rated,
                )
            # Seated now (the pass's ``now`` is when it read the free players, and a match may
            # have been counted since).
            ArenaMatch.objects.create(
                arena=arena,
                match=match,
                first_id=a.user_id,
                second_id=b.user_id,
                started_at=timezone.now(),
            )
            for me, other in ((a, b), (b, a)):
                row = rows[me.pk]
                row.free_since, row.last_opponent_id = None, other.user_id
            started.append(match)
        ArenaPlayer.objects.bulk_update(
            [rows[e.pk] for pair in ready for e in pair], ["free_since", "last_opponent"]
        )
        withdraw_elsewhere(players, now, from_pool=True)
        event_log.record_all(
            [
                event_log.Entry(
                    me.user_id,
                    "paired",
                    {**paired_json(me, users[other.user_id], m), "arena": arena.public_id},
                )
                for (a, b), m in zip(ready, started, strict=True)
                for me, other in ((a, b), (b, a))
            ]
        )
        for (a, b), match in zip(ready, started, strict=True):
            send_to_match([a.user_id, b.user_id], match)
        arena_changed(arena)
    return started
