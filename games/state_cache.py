"""The state of a match, derived from its log, with a small cache of recent states.

A match is its rules, its seed (or stacked first deck) and its ordered actions; the state is
a pure function of those (DESIGN.md principle 3). Replaying is cheap, but a page, its
partials, every listener's push and Bea's reply all read the same position, so the latest
states of recently used matches are kept. That is safe across processes because a log only
grows: a cached state is a position of it, used as it is when its version is the row's, or
brought up to the row's version with the actions since (the other player's moves, made in
another process), never past it.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db import transaction

from games.engine import MatchState, Ruleset, apply, new_match

from . import lookups
from .models import Match

log = logging.getLogger(__name__)

CACHE_SIZE = 512
# How long a hand waits for the players' seeds before it is dealt without the missing ones
# (docs/fairness.md; ``services.deal_overdue``): a page sends its seed as soon as it shows the
# commitment, well within this.
SEED_WAIT_SECONDS = 10
_cache: OrderedDict[int, MatchState] = OrderedDict()
_lock = threading.Lock()
_pending = threading.local()


def remember(match: Match, state: MatchState) -> MatchState:
    """Keep ``state`` as the latest of ``match`` (the door calls this after a commit)."""
    with _lock:  # sockets render in several threads at once
        _cache[match.pk] = state
        _cache.move_to_end(match.pk)
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
    return state


@contextmanager
def pending(match: Match, state: MatchState) -> Iterator[None]:
    """Inside a change's transaction, before it commits: ``state`` is the match's state for
    this thread only (the subscribers render it), never for other threads. The shared cache
    learns it only when the change commits, so a change rolled back leaves nothing behind."""
    # First of the commit's hooks: the pushes that follow find the state cached.
    transaction.on_commit(lambda: remember(match, state))
    _pending.changes = {**getattr(_pending, "changes", {}), match.pk: (state, {})}
    try:
        yield
    finally:
        _pending.changes.pop(match.pk, None)


def _pending_for(match: Match) -> tuple[MatchState, dict[int | None, dict[str, Any]]] | None:
    """This thread's pending change of ``match`` (its state and the views rendered of it), if
    the row is at that state's version."""
    change = getattr(_pending, "changes", {}).get(match.pk)
    if change is None or change[0].version != match.version or change[0].seed != match.seed:
        return None
    return change


def pending_views(match: Match) -> dict[int | None, dict[str, Any]] | None:
    """While a change of ``match`` is pending in this thread (``pending``), the views of it
    rendered so far, by reader (``games.readers.view_for`` keeps them here): the change's
    events and the mover's answer show a seat the same position, rendered once. None
    outside a pending change, or for a row at another version than the pending state."""
    change = _pending_for(match)
    return None if change is None else change[1]


def seeders(match: Match) -> tuple[int, ...]:
    """The seats whose seed each hand's deal waits for (docs/fairness.md): both players', but
    against Bea only the player's (Bea always sits at seat 1, and a seed of hers would be the
    server's own choice), and in pass-and-play only seat 0's (one device holds both seats)."""
    return (0,) if match.kind in (Match.Kind.BEA, Match.Kind.LOCAL) else (0, 1)


def first_state(match: Match) -> MatchState:
    """The match before any action: its first hand dealt, or waiting for the players' seeds."""
    return new_match(
        Ruleset.from_dict(match.rules),
        seed=match.seed,
        deck=match.first_deck,
        fair=match.fair,
        seeders=seeders(match),
    )


def load_state(match: Match) -> MatchState:
    """The match's current state, derived from its log."""
    change = _pending_for(match)
    if change is not None:
        return change[0]
    cached = _cache.get(match.pk)
    # The seed too: a deleted match's primary key can be reused (SQLite, test rollbacks).
    known = cached is not None and cached.seed == match.seed
    if known and cached.version == match.version:
        return cached
    # A state the row has moved past (the other player's move, made in another process) is
    # still a position of this log, which only grows: the actions since then bring it up to
    # date, rather than the whole log from the first deal.
    state = cached if known and cached.version < match.version else first_state(match)
    # Up to the row's version only: a move committed after the row was read is not part of
    # the position the caller holds (and would make the two disagree).
    for seat, payload in lookups.actions_between(match.pk, state.version, match.version):
        state = apply(state, seat, payload)
    if state.version != match.version:
        log.error(
            "match %s: log gives version %s, row says %s", match.pk, state.version, match.version
        )
    return remember(match, state)


def forget_all() -> None:
    """Drop every cached state (tests that rewrite a match's log behind the door's back)."""
    with _lock:
        _cache.clear()
