"""Quick pairing on PostgreSQL, where a join that finds the pool's passes running leaves its
entry to them: a pass that read the pool before alice and bob joined still pairs them before
it ends (it looks for entries it never read), so nobody waits for the next sweep."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection, connections

from lobby.models import PoolEntry
from lobby.pool import service as pool
from lobby.pool import service as pool_service
from tests.distributed.test_scale_out import _needs_distributed_setup  # noqa: F401
from tests.lobby.lobby_helpers import online

pytestmark = [pytest.mark.distributed, pytest.mark.django_db(transaction=True)]


def _hold(key: int, taken: threading.Event, done: threading.Event) -> None:
    """Hold one of the pool's advisory locks, as a pass running on another worker does."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_lock(%s)", [key])
            taken.set()
            done.wait(timeout=60)
            cursor.execute("SELECT pg_advisory_unlock(%s)", [key])
    finally:
        connections.close_all()


def test_a_pass_pairs_those_who_joined_while_it_ran(
    alice: User, bob: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    online(alice, bob)
    read_once, go_on = threading.Event(), threading.Event()
    real_read = pool._read_pool
    first_read = [True]

    def slow_read(now: Any) -> pool.Pool:
        found = real_read(now)
        if threading.current_thread().name == "pass" and first_read[0]:
            first_read[0] = False
            read_once.set()
            go_on.wait(timeout=60)  # alice and bob join now, after this read
        return found

    monkeypatch.setattr(pool, "_read_pool", slow_read)
    other_taken, other_done = threading.Event(), threading.Event()
    other = threading.Thread(target=_hold, args=(pool._POOL_LOCKS[1], other_taken, other_done))
    started: list[Any] = []

    def run_pass() -> None:
        try:
            started.extend(pool_service.pair_waiting())
        finally:
            connections.close_all()

    running = threading.Thread(target=run_pass, name="pass")
    other.start()
    assert other_taken.wait(timeout=30)
    running.start()
    try:
        assert read_once.wait(timeout=30)
        # Both passes are running: the joins only add their entries.
        assert pool_service.join_pool(alice, "standard", 100).status == "waiting"
        assert pool_service.join_pool(bob, "standard", 100).status == "waiting"
    finally:
        go_on.set()
        running.join(timeout=60)
        other_done.set()
        other.join(timeout=60)

    assert len(started) == 1
    entries = {e.user.username: e for e in PoolEntry.objects.select_related("user")}
    assert {e.status for e in entries.values()} == {"paired"}
    assert entries["alice"].match_id == entries["bob"].match_id == started[0].pk
