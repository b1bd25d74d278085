"""Storing a move's events for all its players at once numbers each player's own log."""

from __future__ import annotations

import pytest

from lobby.events import log as event_log
from lobby.models import PlayerEvent

pytestmark = pytest.mark.django_db


def _log(user) -> list[tuple[int, str, dict]]:  # type: ignore[no-untyped-def]
    rows = PlayerEvent.objects.filter(user=user).order_by("seq")
    return [(e.seq, e.kind, e.payload) for e in rows]


def test_each_player_gets_their_next_number(alice, bob) -> None:  # type: ignore[no-untyped-def]
    event_log.record(alice.pk, "challenge", {"n": 0})
    seqs = event_log.record_all(
        [
            event_log.Entry(bob.pk, "match", {"to": "bob"}),
            event_log.Entry(alice.pk, "match", {"to": "alice"}),
        ]
    )
    assert seqs == [1, 2]  # in the order given: bob's first, alice's second
    assert _log(alice) == [(1, "challenge", {"n": 0}), (2, "match", {"to": "alice"})]
    assert _log(bob) == [(1, "match", {"to": "bob"})]


def test_one_player_twice_in_a_call_gets_two_numbers_in_order(alice, bob) -> None:  # type: ignore[no-untyped-def]
    seqs = event_log.record_all(
        [
            event_log.Entry(alice.pk, "match", {"n": 1}),
            event_log.Entry(bob.pk, "match", {"n": 1}),
            event_log.Entry(alice.pk, "match", {"n": 2}),
        ]
    )
    assert seqs == [1, 1, 2]
    assert _log(alice) == [(1, "match", {"n": 1}), (2, "match", {"n": 2})]
    assert _log(bob) == [(1, "match", {"n": 1})]
