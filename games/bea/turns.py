"""Bea's turns: scheduled by the door's announcement, played in the background.

When a change leaves Bea to move (a human's move, a new hand, a new match she opens), the
subscriber ``on_change`` schedules her turn once. ``BEA_PAUSE_MS`` later this process's
worker thread plays one action through the door (``services.submit``); that is announced in
turn, which schedules her next action while the turn is still hers. So every way a human
moves (htmx, a page without JavaScript, the API) gets her reply the same way, and no read
ever moves for her. The pause is what a person at the table sees as Bea thinking; the table
socket pushes each of her actions as it lands.

One thread per process plays every Bea match in due order: her decisions take milliseconds
(``bench.bea``), and the pauses are waits in a heap, not sleeps per match.

A turn of hers is held only in the memory of the process that scheduled it. When that process
dies in the pause (a deploy, a crash), or her move fails, no announcement comes again: every
worker's outbox sweep therefore also looks for running matches where she is to move and nothing
has moved for a while (``Resumer``), and schedules her there. Two workers that both do so play
her move once: the door refuses the second on its version.
"""

from __future__ import annotations

import heapq
import logging
import random
import threading
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import connections, transaction
from django.utils import timezone

from games import services
from games.ai import choose
from games.engine import player_view
from games.events import MatchChanged
from games.models import Match, Seat
from games.readers import bea_seat
from games.state_cache import load_state
from games.table import add_ons as extras

log = logging.getLogger(__name__)


def on_change(sender: Any, change: MatchChanged, **kwargs: Any) -> None:
    """Subscriber of ``match_changed``: Bea to move means her turn gets scheduled."""
    bea_to_move = change.to_act is not None and change.to_act == change.bea_seat
    if change.status == Match.Status.ACTIVE and bea_to_move:
        delay = settings.BEA_PAUSE_MS / 1000
        transaction.on_commit(lambda: worker.schedule(change.match_id, delay))


def play(match: Match) -> bool:
    """Let Bea make her move if it is hers; False when it is not (or no longer) her turn."""
    seat = bea_seat(match)
    if seat is None or not match.is_active:
        return False
    state = load_state(match)
    if state.to_act != seat.number:
        return False
    view = player_view(state, seat.number)
    # Seeded by the match and position, so a replayed match gets the same replies.
    rng = random.Random(f"bea:{match.seed}:{state.version}")
    action = _decide(view, seat.bea_level or "medium", rng)
    try:
        services.submit(match, seat.number, action, state.version)
    except services.StaleVersion:
        return False  # another process already moved for her
    return True


def _decide(view: dict[str, Any], level: str, rng: random.Random) -> dict[str, Any]:
    """Bea's action at ``level``; in a lesson her "level" is the lesson's script."""
    scripted = extras.scripted_levels.get(level)
    if scripted is not None:
        return scripted(view)
    return choose(view, level=level, rng=rng)


def play_turn(match: Match, limit: int = 20) -> int:
    """Bea's whole turn at once, until a human is to move (or the hand or match is over): for
    code that runs without the worker, such as tests and the arena's checks. The count of her
    actions; ``limit`` guards against a loop."""
    moves = 0
    while moves < limit and play(match):
        moves += 1
    return moves


# Nothing moved for this long in her turn: no process is playing it any more.
STALLED_AFTER = timedelta(seconds=5)
# After a worker's first look (everything), it looks only at matches changed this recently.
STALLED_LOOKBACK = timedelta(minutes=10)
RESUME_EVERY_SECONDS = 10.0


def resume_stalled(lookback: timedelta | None = None) -> int:
    """Schedule Bea in each running match where she is to move and nothing has moved for
    STALLED_AFTER (changed within ``lookback``, or ever); how many."""
    now = timezone.now()
    matches = Match.objects.filter(
        status=Match.Status.ACTIVE, seats__kind=Seat.Kind.BEA, updated_at__lt=now - STALLED_AFTER
    )
    if lookback is not None:
        matches = matches.filter(updated_at__gte=now - lookback)
    found = 0
    for match in matches.prefetch_related("seats"):
        seat = bea_seat(match)
        if seat is not None and load_state(match).to_act == seat.number:
            worker.schedule(match.pk, 0)
            found += 1
    return found


class Resumer:
    """The sweep's look for stalled turns of Bea's: at most every RESUME_EVERY_SECONDS, the
    first time over every running match (a worker that starts may be replacing one that died)."""

    def __init__(self) -> None:
        self._last: float | None = None

    def __call__(self) -> None:
        now = time.monotonic()
        if self._last is not None and now - self._last < RESUME_EVERY_SECONDS:
            return
        lookback = None if self._last is None else STALLED_LOOKBACK
        self._last = now
        found = resume_stalled(lookback)
        if found:
            log.warning("Bea resumes %s turn(s) that no process was playing", found)


def _play_match(match_id: int) -> None:
    match = Match.objects.prefetch_related("seats").filter(pk=match_id).first()
    if match is not None:
        play(match)


class Worker:
    """Runs ``play(match_id)`` for scheduled matches in due order, on one daemon thread
    (started on first use)."""

    def __init__(self, play: Callable[[int], None]) -> None:
        self._play = play
        self._cond = threading.Condition()
        self._due: list[tuple[float, int]] = []
        self._queued: set[int] = set()
        self._busy = 0
        self._thread: threading.Thread | None = None

    def schedule(self, match_id: int, delay: float) -> None:
        """Play Bea's next action in ``match_id`` after ``delay`` seconds (once, however often
        it is asked before then)."""
        with self._cond:
            if match_id in self._queued:
                return
            self._queued.add(match_id)
            heapq.heappush(self._due, (time.monotonic() + delay, match_id))
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="bea-turns", daemon=True)
                self._thread.start()
            self._cond.notify_all()

    def wait_idle(self, timeout: float) -> bool:
        """Wait until nothing is scheduled or being played; False on timeout."""
        with self._cond:
            return self._cond.wait_for(lambda: not self._due and not self._busy, timeout)

    def _take(self) -> int:
        with self._cond:
            while True:
                if self._due:
                    when, match_id = self._due[0]
                    wait = when - time.monotonic()
                    if wait <= 0:
                        heapq.heappop(self._due)
                        self._queued.discard(match_id)
                        self._busy += 1
                        return match_id
                    self._cond.wait(wait)
                else:
                    self._cond.wait()

    def _run(self) -> None:
        while True:
            match_id = self._take()
            try:
                self._play(match_id)
            except Exception:
                log.exception("Bea could not move in match %s", match_id)
            finally:
                with self._cond:
                    self._busy -= 1
                    idle = not self._due
                    self._cond.notify_all()
                if idle:
                    # Hold no database connection while there is nothing to do.
                    connections.close_all()


worker = Worker(_play_match)
