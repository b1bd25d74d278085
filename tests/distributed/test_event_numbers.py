"""Each player's events are numbered 1, 2, 3... with no gap and no repeat, even when many
transactions on PostgreSQL store events for the same player at once (a move in one match, a
challenge, a move in another): the loser of a race for a number takes the next one, and
nothing fails."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.db import connections, transaction

from lobby.events import log as event_log
from lobby.models import PlayerEvent
from tests.distributed.test_scale_out import _needs_distributed_setup  # noqa: F401

pytestmark = [pytest.mark.distributed, pytest.mark.django_db(transaction=True)]

WRITERS = 12
EACH = 20


def _race(store: Callable[[int, int], None]) -> list[str]:
    """WRITERS threads at once, each calling ``store(writer, n)`` EACH times, every call in a
    transaction of its own that stays open a moment after its events, so that the others run
    into its uncommitted numbers. What failed, if anything."""
    barrier = threading.Barrier(WRITERS)
    failures: list[str] = []

    def write(writer: int) -> None:
        try:
            barrier.wait(timeout=30)
            for n in range(EACH):
                with transaction.atomic():
                    store(writer, n)
                    PlayerEvent.objects.exists()
        except Exception as exc:  # a deadlock, a number that failed: reported by the caller
            failures.append(repr(exc))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=write, args=(w,)) for w in range(WRITERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return failures


def _numbers(user: User) -> list[int]:
    return list(PlayerEvent.objects.filter(user=user).order_by("seq").values_list("seq", flat=True))


def test_racing_writers_never_share_or_skip_a_number(django_user_model: type[User]):
    judy = django_user_model.objects.create_user(username="judy")

    def store(writer: int, n: int) -> None:
        event_log.record(judy.pk, "test", {"writer": writer, "n": n})

    assert _race(store) == []
    assert _numbers(judy) == list(range(1, WRITERS * EACH + 1))
    # And each writer's own events are in the order it wrote them.
    for writer in range(WRITERS):
        mine = PlayerEvent.objects.filter(user=judy, payload__writer=writer).order_by("seq")
        assert [e.payload["n"] for e in mine] == list(range(EACH))


def test_writers_of_two_players_events_at_once_never_deadlock(django_user_model: type[User]):
    """A move stores one event for each of its players in one statement, taking both
    players' locks first; writers naming the two in either order must not deadlock."""
    kim = django_user_model.objects.create_user(username="kim")
    lee = django_user_model.objects.create_user(username="lee")

    def store(writer: int, n: int) -> None:
        pair = (kim.pk, lee.pk) if writer % 2 else (lee.pk, kim.pk)
        event_log.record_all([event_log.Entry(p, "test", {"writer": writer, "n": n}) for p in pair])

    assert _race(store) == []
    assert _numbers(kim) == _numbers(lee) == list(range(1, WRITERS * EACH + 1))
