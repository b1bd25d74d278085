"""Quick pairing raced on PostgreSQL: many players press "Play now" at once while two
workers' sweeps pair the pool too. Everyone ends in exactly one match or still waiting:
nobody paired twice, no entry paired without its match, never a 500."""

from __future__ import annotations

import threading
from collections import Counter

import pytest
from django.contrib.auth.models import User
from django.db import connections
from django.test import Client

from games.models import Match, Seat
from lobby.models import PoolEntry
from lobby.pool import service as pool_service
from tests.distributed.test_scale_out import _needs_distributed_setup  # noqa: F401
from tests.lobby.lobby_helpers import online

pytestmark = [pytest.mark.distributed, pytest.mark.django_db(transaction=True)]

PLAYERS = 16


def _joins_and_sweeps(clients: list[Client]) -> list[int | str]:
    """Every client posts a tile at the same moment while two sweeps pair the pool."""
    barrier = threading.Barrier(len(clients) + 2)
    results: list[int | str] = ["not run"] * len(clients)
    done = threading.Event()

    def join(i: int, client: Client) -> None:
        try:
            barrier.wait(timeout=30)
            results[i] = client.post("/lobby/pool/", {"tile": "standard:100"}).status_code
        except Exception as exc:  # reported by the assertion below
            results[i] = repr(exc)
        finally:
            connections.close_all()

    def sweep() -> None:
        try:
            barrier.wait(timeout=30)
            while not done.is_set():
                pool_service.pair_waiting()
        finally:
            connections.close_all()

    joins = [threading.Thread(target=join, args=(i, c)) for i, c in enumerate(clients)]
    sweeps = [threading.Thread(target=sweep) for _ in range(2)]
    for thread in joins + sweeps:
        thread.start()
    for thread in joins:
        thread.join(timeout=120)
    done.set()
    for thread in sweeps:
        thread.join(timeout=60)
    return results


def test_concurrent_joins_pair_everyone_once(django_user_model: type[User]) -> None:
    users = [django_user_model.objects.create_user(username=f"p{n}") for n in range(PLAYERS)]
    online(*users)
    clients = []
    for user in users:
        client = Client(raise_request_exception=False)
        client.force_login(user)
        clients.append(client)

    results = _joins_and_sweeps(clients)
    pool_service.pair_waiting()  # whoever a race left waiting (none should be)

    # A join answers 302: to the lobby while waiting, to the table when paired at once.
    assert results == [302] * PLAYERS
    seats = Counter(
        Seat.objects.filter(match__kind=Match.Kind.LOBBY).values_list("user_id", flat=True)
    )
    assert set(seats.values()) == {1}, "a player was seated twice"
    assert len(seats) == PLAYERS
    entries = PoolEntry.objects.all()
    assert Counter(e.status for e in entries) == {"paired": PLAYERS}
    by_match = Counter(e.match_id for e in entries)
    assert set(by_match.values()) == {2}
    assert len(by_match) == Match.objects.filter(kind=Match.Kind.LOBBY).count() == PLAYERS // 2
    for entry in entries:
        assert {s.user_id for s in entry.match.seats.all()} == {entry.user_id, entry.opponent_id}
