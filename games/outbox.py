"""The outbox: what a change announces is delivered in the change's own transaction, once.

``announce`` hands the change to the subscribers (``match_changed``) inside the transaction of
the change itself, in a savepoint: what they store (each player's numbered event) commits
with the move or not at all, and what they push to sockets goes after the commit. So a
process killed right after the commit has lost nothing that was stored; only its pushes, and
a stream finds the stored events at its next read (at the latest its keep-alive).

When a subscriber fails, the savepoint is rolled back (the move still commits) and the
change is written as an undelivered ``Announcement`` row: right after the commit the same
process tries again (``deliver``), and whatever is still undelivered a few seconds later is
delivered by the sweep any worker runs (``Sweeper``, started by ``ginsite.asgi``). A change
delivered in its own transaction leaves no row: the match's action log is its record.
Delivery is exactly once and in order per match: a match with an undelivered announcement
gets its next ones delivered after it, never in the change's transaction; ``deliver`` locks
the undelivered rows of a match, marks them and hands them to the subscribers in one
transaction, oldest first.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import asdict
from datetime import timedelta

from django.db import close_old_connections, connections, transaction
from django.utils import timezone

from . import lookups
from .events import STARTED, MatchChanged, describe, publish
from .models import Announcement, Match

log = logging.getLogger(__name__)

# A change still undelivered this long after it was made lost its process: the sweep takes it.
ORPHANED_AFTER = timedelta(seconds=3)
SWEEP_EVERY_SECONDS = 2.0
# Announcements delivered after their commit are kept a while for inspection, then purged.
KEEP = timedelta(hours=1)


def announce(
    match: Match,
    reason: str,
    to_act: int | None = None,
    *,
    fresh_seats: bool = False,
    waiting: bool | None = None,
) -> MatchChanged:
    """Deliver what this change of ``match`` announces to the subscribers in the current
    transaction; when one of them fails, store it undelivered, to be delivered after the
    commit. ``fresh_seats`` as for ``events.describe``; ``waiting``: whether an earlier
    announcement of the match waits undelivered, as the caller read it with the match's lock
    in this transaction (``lookups.WAITING_READ``), or None to read it now."""
    change = describe(match, reason, to_act, fresh_seats=fresh_seats)
    if waiting is None:
        waiting = reason != STARTED and lookups.undelivered(match.pk)
    # In order: behind an announcement of this match still undelivered, this one waits too
    # (a match's start has nothing before it).
    if reason == STARTED or not waiting:
        try:
            with transaction.atomic():
                # The door's match object only when its seats were read under the lock.
                if not publish(change, match if fresh_seats else None):
                    raise _SubscriberFailed
            return change
        except _SubscriberFailed:
            pass  # rolled back to the savepoint: nothing any subscriber stored stays
    Announcement.objects.create(match_id=change.match_id, change=asdict(change))
    transaction.on_commit(lambda: deliver(change.match_id))
    return change


class _SubscriberFailed(Exception):
    pass


def deliver(match_id: int) -> int:
    """Hand every undelivered announcement of one match to the subscribers, oldest first,
    each exactly once; how many. A failing subscriber is logged (``events.publish``)."""
    try:
        with transaction.atomic():
            rows = list(
                Announcement.objects.select_for_update()
                .filter(match_id=match_id, delivered_at__isnull=True)
                .order_by("pk")
            )
            if not rows:
                return 0
            Announcement.objects.filter(pk__in=[row.pk for row in rows]).update(
                delivered_at=timezone.now()
            )
            for row in rows:
                publish(MatchChanged(**{**row.change, "players": tuple(row.change["players"])}))
    except Exception:
        # The rows stay undelivered; the sweep tries again.
        log.exception("could not deliver the announcements of match %s", match_id)
        return 0
    return len(rows)


def deliver_orphans(now: object = None) -> int:
    """Deliver what processes that died after their commit never did; how many."""
    cutoff = (now or timezone.now()) - ORPHANED_AFTER  # type: ignore[operator]
    match_ids = (
        Announcement.objects.filter(delivered_at__isnull=True, created_at__lt=cutoff)
        .values_list("match_id", flat=True)
        .distinct()
    )
    return sum(deliver(match_id) for match_id in list(match_ids))


def purge() -> int:
    cutoff = timezone.now() - KEEP
    return Announcement.objects.filter(delivered_at__lt=cutoff).delete()[0]


class Sweeper:
    """A daemon thread per server process: delivers orphaned announcements every few seconds
    and forgets old delivered ones. Every worker runs one; the row locks keep each delivery
    once."""

    def __init__(self, every: float = SWEEP_EVERY_SECONDS) -> None:
        self.every = every
        # More work for the same thread at each sweep (Bea's stalled turns, games.bea.turns).
        self.jobs: list[Callable[[], None]] = []
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="outbox-sweep", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()

    def wake(self) -> None:
        """Sweep now rather than at the next tick (work handed over to it, such as the rest
        of a quick-pairing pass a join had no time for)."""
        self._wake.set()

    def _run(self) -> None:
        sweeps = 0
        while True:
            self._wake.wait(self.every)
            self._wake.clear()
            if self._stop.is_set():
                return
            try:
                close_old_connections()
                found = deliver_orphans()
                if found:
                    log.warning("delivered %s orphaned announcement(s)", found)
                sweeps += 1
                if sweeps % 300 == 0:
                    purge()
                for job in self.jobs:
                    job()
            except Exception:
                log.exception("the outbox sweep failed")
            finally:
                connections.close_all()


sweeper = Sweeper()
