"""The pool's choice of pairs (no database): the search outward from each player's rating picks
exactly the pairs the rule says, the rule written out here the plain way (every waiting player
against every other), over random pools with blocks, bots, last opponents and windows."""

from __future__ import annotations

import random
from collections.abc import Iterable
from datetime import timedelta

import pytest
from django.utils import timezone

from lobby.models import PoolEntry
from lobby.pool.pairs import Pool, again

NOW = timezone.now()


def _rule_best_for(pool: Pool, me: PoolEntry, others: Iterable[PoolEntry]) -> PoolEntry | None:
    """The rule: among those who fit, the ones not met last time if there are any; of those
    within the wider window, the nearest rating, then the longest waiting."""
    fitting = [o for o in others if pool.fits(me, o)]
    fresh = [o for o in fitting if not again(me, o)]
    near = [o for o in (fresh or fitting) if pool.near(me, o)]
    if not near:
        return None
    return min(near, key=lambda o: (abs(o.rating - me.rating), o.joined_at, o.pk))


def _rule_pairs(pool: Pool) -> list[tuple[PoolEntry, PoolEntry]]:
    free = {e.pk: e for e in pool.entries}
    found = []
    for me in pool.entries:
        if me.pk not in free:
            continue
        other = _rule_best_for(pool, me, (e for pk, e in free.items() if pk != me.pk))
        if other is not None:
            del free[me.pk], free[other.pk]
            found.append((me, other) if me.joined_at <= other.joined_at else (other, me))
    return found


def _random_pool(rng: random.Random, size: int) -> Pool:
    users = list(range(1, size + 1))
    entries = []
    for pk, user in enumerate(users, start=1):
        entries.append(
            PoolEntry(
                pk=pk,
                user_id=user,
                preset=rng.choice(["standard", "standard", "classic"]),
                target=rng.choice([100, 100, 250]),
                rated=rng.random() < 0.7,
                days_per_move=rng.choice([None, None, None, 3]),
                is_bot=rng.random() < 0.15,
                allow_bots=rng.random() < 0.5,
                # Few distinct ratings: ties of distance and of rating are common.
                rating=rng.choice([1500.0, 1500.0, 1450.0, 1550.0])
                + rng.choice([0, 0, 20, -20, 60, 120, -300, 480, 700]),
                previous_opponent_id=rng.choice([None, None, rng.choice(users)]),
                joined_at=NOW - timedelta(seconds=rng.choice([0, 0, 3, 7.5, 15, 40])),
            )
        )
    entries.sort(key=lambda e: (e.joined_at, e.pk))
    blocks = {(rng.choice(users), rng.choice(users)) for _ in range(size // 4)}
    blocked = frozenset(p for a, b in blocks for p in ((a, b), (b, a)))
    return Pool(entries, blocked, NOW)


def _ids(pairs: list[tuple[PoolEntry, PoolEntry]]) -> list[tuple[int, int]]:
    return [(a.pk, b.pk) for a, b in pairs]


@pytest.mark.parametrize("seed", range(300))
def test_the_search_outward_picks_the_pairs_of_the_rule(seed: int) -> None:
    rng = random.Random(seed)
    pool = _random_pool(rng, rng.choice([2, 3, 5, 8, 13, 30, 60]))
    assert _ids(pool.pairs()) == _ids(_rule_pairs(pool))


def test_five_hundred_equal_ratings_make_two_hundred_and_fifty_pairs_in_the_order_they_came() -> (
    None
):
    entries = [
        PoolEntry(
            pk=pk,
            user_id=pk,
            preset="standard",
            target=100,
            rated=True,
            rating=1500.0,
            joined_at=NOW + timedelta(milliseconds=pk),
        )
        for pk in range(1, 501)
    ]
    pairs = _ids(Pool(entries, frozenset(), NOW + timedelta(seconds=1)).pairs())
    assert pairs == [(pk, pk + 1) for pk in range(1, 501, 2)]


def test_a_player_met_last_time_is_paired_again_only_when_nobody_else_fits() -> None:
    def entry(pk: int, previous: int | None, rating: float = 1500.0) -> PoolEntry:
        return PoolEntry(
            pk=pk,
            user_id=pk,
            preset="standard",
            target=100,
            rating=rating,
            previous_opponent_id=previous,
            joined_at=NOW + timedelta(milliseconds=pk),
        )

    # 3 is out of 1's window, yet waits for the same game: 1 and 2 are not paired again.
    alone = Pool([entry(1, 2), entry(2, 1), entry(3, None, 1900.0)], frozenset(), NOW)
    assert alone.pairs() == []
    together = Pool([entry(1, 2), entry(2, 1)], frozenset(), NOW)
    assert _ids(together.pairs()) == [(1, 2)]
