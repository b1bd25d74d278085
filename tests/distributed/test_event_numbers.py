"""Each player's events are numbered 1, 2, 3... with no gap and no repeat, even when many
transactions on PostgreSQL store events for the same player at once (a move in one match, a
challenge, a move in another): the loser of a race for a number takes the next one, and
nothing fails."""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth.models import User
from django.db import connections, transaction

from lobby import event_log
from lobby.models import PlayerEvent
from tests.distributed.test_scale_out import _needs_distributed_setup  # noqa: F401

pytestmark = [pytest.mark.distributed, pytest.mark.django_db(transaction=True)]

WRITERS = 12
EACH = 20


def test_racing_writers_never_share_or_skip_a_number(django_user_model: type[User]):
    judy = django_user_model.objects.create_user(username="judy")
    barrier = threading.Barrier(WRITERS)
    failures: list[str] = []

    def write(writer: int) -> None:
        try:
            barrier.wait(timeout=30)
            for n in range(EACH):
                # Each its own transaction that stays open a moment after its event, so that
                # the others run into its uncommitted number.
                with transaction.atomic():
                    event_log.record(judy.pk, "test", {"writer": writer, "n": n})
                    PlayerEvent.objects.filter(user=judy).exists()
        except Exception as exc:  # reported by the assertion below
            failures.append(repr(exc))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=write, args=(w,)) for w in range(WRITERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert failures == []
    seqs = list(PlayerEvent.objects.filter(user=judy).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, WRITERS * EACH + 1))
    # And each writer's own events are in the order it wrote them.
    for writer in range(WRITERS):
        mine = PlayerEvent.objects.filter(user=judy, payload__writer=writer).order_by("seq")
        assert [e.payload["n"] for e in mine] == list(range(EACH))


def test_writers_of_two_players_events_at_once_never_deadlock(django_user_model: type[User]):
    """A move stores one event for each of its players in one statement, taking both
    players' locks first; writers naming the two in either order must not deadlock."""
    kim = django_user_model.objects.create_user(username="kim")
    lee = django_user_model.objects.create_user(username="lee")
    barrier = threading.Barrier(WRITERS)
    failures: list[str] = []

    def write(writer: int) -> None:
        pair = (kim.pk, lee.pk) if writer % 2 else (lee.pk, kim.pk)
        try:
            barrier.wait(timeout=30)
            for n in range(EACH):
                with transaction.atomic():
                    event_log.record_all(
                        [event_log.Entry(p, "test", {"writer": writer, "n": n}) for p in pair]
                    )
                    PlayerEvent.objects.filter(user_id=pair[0]).exists()
        except Exception as exc:  # a deadlock, reported by the assertion below
            failures.append(repr(exc))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=write, args=(w,)) for w in range(WRITERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert failures == []
    for player in (kim, lee):
        seqs = PlayerEvent.objects.filter(user=player).order_by("seq").values_list("seq", flat=True)
        assert list(seqs) == list(range(1, WRITERS * EACH + 1))
