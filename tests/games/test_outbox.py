"""The outbox: what a change announces is delivered in its own transaction (the players'
events commit with the move), once and in order; a delivery that failed there is made after
the commit by the same process, or else by the sweep."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import pytest
from django.db import connection, transaction
from django.utils import timezone

from games import outbox, services, state_cache
from games.engine import legal_actions
from games.events import match_changed
from games.models import Announcement, Match
from games.state_cache import load_state
from ginsite.lib import after_commit as pushes
from ginsite.lib.refusals import Refused
from lobby.models import PlayerEvent
from tests.games.conftest import ALICE_KNOCKS, BEA_LOOSE, stacked
from tests.games.live_helpers import lobby_match

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db(transaction=True)

DECK = stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "2D")
MOVES = ((0, {"type": "pass"}), (1, {"type": "pass"}), (0, {"type": "draw", "from": "stock"}))


@contextmanager
def _process_dies_after_commit() -> Iterator[None]:
    """Changes commit, but their process never gets to do anything after the commit (as
    under kill -9): no push, no second try at a delivery."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(outbox, "deliver", lambda match_id: 0)
        patch.setattr(pushes, "send_now", lambda messages: None)
        yield


@contextmanager
def _first_delivery_fails() -> Iterator[None]:
    """A subscriber fails the first time it hears of a change (a database hiccup), then
    works; it stores an event of its own, so a half-done delivery would show."""
    calls = {"n": 0}

    def flaky(sender: Any, change: Any, **kwargs: Any) -> None:
        calls["n"] += 1
        if calls["n"] == 1:
            PlayerEvent.objects.create(user_id=change.players[0], seq=999, kind="x", payload={})
            raise RuntimeError("the database went away for a moment")

    match_changed.connect(flaky, dispatch_uid="test.flaky")
    try:
        yield
    finally:
        match_changed.disconnect(dispatch_uid="test.flaky")


def _match_versions(user: User) -> list[int]:
    events = PlayerEvent.objects.filter(user=user, kind="match").order_by("seq")
    return [e.payload["version"] for e in events]


def _later() -> Any:
    return timezone.now() + outbox.ORPHANED_AFTER + timedelta(seconds=1)


def test_a_move_is_delivered_once_right_after_its_commit(alice: User, bob: User):
    match = lobby_match(alice, bob, deck=DECK)
    services.submit(match, 0, {"type": "pass"}, 0)
    # Delivered in its own transaction: nothing is left in the outbox (the log is its record).
    assert not Announcement.objects.exists()
    assert _match_versions(alice) == [0, 1] and _match_versions(bob) == [0, 1]
    assert outbox.deliver_orphans(_later()) == 0
    assert _match_versions(bob) == [0, 1]


def test_a_moves_events_commit_with_it_so_a_process_killed_after_the_commit_lost_none(
    alice: User, bob: User
):
    match = lobby_match(alice, bob, deck=DECK)
    with _process_dies_after_commit():
        services.submit(match, 0, {"type": "pass"}, 0)
    assert Match.objects.get(pk=match.pk).version == 1
    assert _match_versions(alice) == [0, 1] and _match_versions(bob) == [0, 1]
    assert not Announcement.objects.filter(delivered_at__isnull=True).exists()
    assert outbox.deliver_orphans(_later()) == 0  # nothing left over, nothing twice
    assert _match_versions(bob) == [0, 1]


def test_a_move_whose_events_are_rolled_back_stores_none(alice: User, bob: User):
    match = lobby_match(alice, bob, deck=DECK)
    with pytest.raises(RuntimeError), transaction.atomic():
        services.submit(match, 0, {"type": "pass"}, 0)
        raise RuntimeError("the request failed after the door")
    assert Match.objects.get(pk=match.pk).version == 0
    assert _match_versions(bob) == [0]
    assert load_state(Match.objects.get(pk=match.pk)).version == 0


def test_the_sweep_delivers_what_failed_in_the_transaction_of_a_dead_process(
    alice: User, bob: User
):
    match = lobby_match(alice, bob, deck=DECK)
    with _first_delivery_fails(), _process_dies_after_commit():
        services.submit(match, 0, {"type": "pass"}, 0)
    # The move committed; its delivery was rolled back whole (the flaky subscriber's own
    # event too), and it waits, stored, for someone to deliver it.
    assert Match.objects.get(pk=match.pk).version == 1
    assert Announcement.objects.filter(delivered_at__isnull=True).count() == 1
    assert _match_versions(bob) == [0]
    assert not PlayerEvent.objects.filter(seq=999).exists()
    assert outbox.deliver_orphans() == 0  # not yet: its own process may still deliver it
    assert outbox.deliver_orphans(_later()) == 1
    assert _match_versions(alice) == [0, 1] and _match_versions(bob) == [0, 1]
    assert outbox.deliver_orphans(_later()) == 0  # once only


def test_a_delivery_that_failed_in_the_transaction_is_made_right_after_the_commit(
    alice: User, bob: User
):
    match = lobby_match(alice, bob, deck=DECK)
    with _first_delivery_fails():
        services.submit(match, 0, {"type": "pass"}, 0)
    assert not Announcement.objects.filter(delivered_at__isnull=True).exists()
    assert _match_versions(bob) == [0, 1]


def test_changes_wait_behind_an_undelivered_one_and_keep_each_matchs_order(alice: User, bob: User):
    match = lobby_match(alice, bob, deck=DECK)
    with _first_delivery_fails(), _process_dies_after_commit():
        for seat, action in MOVES:
            services.submit(match, seat, action, match.version)
    # The first failed; the two after it were not delivered before it.
    assert _match_versions(bob) == [0]
    assert outbox.deliver(match.pk) == 3
    assert _match_versions(bob) == [0, 1, 2, 3]
    seqs = list(PlayerEvent.objects.filter(user=bob).order_by("seq").values_list("seq", flat=True))
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)


def test_a_failing_subscriber_keeps_no_other_from_hearing(alice: User, bob: User):
    def broken(sender: Any, change: Any, **kwargs: Any) -> None:
        raise RuntimeError("a subscriber with a bug")

    match = lobby_match(alice, bob, deck=DECK)
    match_changed.connect(broken, dispatch_uid="test.broken")
    try:
        services.submit(match, 0, {"type": "pass"}, 0)
    finally:
        match_changed.disconnect(dispatch_uid="test.broken")
    assert _match_versions(bob) == [0, 1]
    assert not Announcement.objects.filter(delivered_at__isnull=True).exists()


def test_it_holds_no_card(alice: User, bob: User):
    match = lobby_match(alice, bob, deck=DECK)
    with _first_delivery_fails(), _process_dies_after_commit():
        services.submit(match, 0, {"type": "pass"}, 0)  # stored, to be delivered later
    rows = list(Announcement.objects.all())
    assert len(rows) == 1
    for row in rows:
        assert set(row.change) == {
            "match_id",
            "public_id",
            "kind",
            "status",
            "version",
            "to_act",
            "reason",
            "players",
            "bea_seat",
        }
        assert row.change["public_id"] == match.public_id
        assert all(isinstance(user_id, int) for user_id in row.change["players"])


def test_moves_made_close_together_reach_each_stream_in_version_order(alice: User, bob: User):
    """Two players' clients move as fast as they can, each on its own thread and database
    connection; every player's log shows the match's versions in increasing order."""
    match = lobby_match(alice, bob)
    errors: list[BaseException] = []
    # The threads play until the match has this many moves (or ends), however slowly the machine
    # runs: the count of moves decides when they stop, never a count of loop turns.
    target = 60
    stop = threading.Event()

    def play(seat: int) -> None:
        try:
            while not stop.is_set():
                row = Match.objects.get(pk=match.pk)
                if not row.is_active or row.version >= target:
                    return
                legal = legal_actions(load_state(row), seat)
                if not legal:
                    time.sleep(0.001)  # the other seat's turn: let it move
                    continue
                pick = next((a for a in legal if a["type"] in ("pass", "discard")), legal[0])
                with contextlib.suppress(Refused):  # the other moved first
                    services.submit(row, seat, pick, row.version)
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=play, args=(seat,)) for seat in (0, 1)]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 100  # inside pytest-timeout's 120 s: a hang fails, not blocks
    for thread in threads:
        thread.join(timeout=max(0.0, deadline - time.monotonic()))
    stop.set()
    for thread in threads:
        thread.join()
    assert not errors, errors
    row = Match.objects.get(pk=match.pk)
    assert row.version >= target or not row.is_active
    for user in (alice, bob):
        versions = _match_versions(user)
        assert versions == sorted(versions) and len(set(versions)) == len(versions)
        assert versions[-1] == row.version


def test_a_row_read_before_a_move_replays_to_its_own_version(alice: User, bob: User):
    # A reader holds the row at version 0 while a move commits: its state is version 0, with
    # no "log gives version 1, row says 0" disagreement.
    match = lobby_match(alice, bob, deck=DECK)
    stale = Match.objects.get(pk=match.pk)
    services.submit(match, 0, {"type": "pass"}, 0)
    state_cache.forget_all()
    assert load_state(stale).version == 0
    assert load_state(Match.objects.get(pk=match.pk)).version == 1
