"""ginsite.lib.after_commit: a commit's Channels messages go in one hop, after the commit, and a
rolled-back transaction sends none."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction

from ginsite.lib import after_commit as pushes

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[list[Any]]:
    hops: list[list[Any]] = []
    monkeypatch.setattr(pushes, "send_now", lambda messages: hops.append(list(messages)))
    return hops


def test_a_commits_messages_go_together_after_it(sent: list[list[Any]]) -> None:
    with transaction.atomic():
        pushes.group_send_after_commit("match-a", {"type": "match.updated", "version": 3})
        pushes.group_send_after_commit("events-1", {"type": "player.event", "seq": 7})
        assert sent == []  # nothing before the commit
    assert sent == [
        [
            ("match-a", {"type": "match.updated", "version": 3}),
            ("events-1", {"type": "player.event", "seq": 7}),
        ]
    ]


def test_a_rolled_back_transaction_sends_nothing(sent: list[list[Any]]) -> None:
    with pytest.raises(RuntimeError), transaction.atomic():
        pushes.group_send_after_commit("match-a", {"type": "match.updated", "version": 3})
        raise RuntimeError("the change failed")
    with transaction.atomic():
        pushes.group_send_after_commit("match-b", {"type": "match.updated", "version": 1})
    assert sent == [[("match-b", {"type": "match.updated", "version": 1})]]


def test_outside_a_transaction_a_message_goes_at_once(sent: list[list[Any]]) -> None:
    pushes.group_send_after_commit("match-a", {"type": "match.updated", "version": 3})
    assert sent == [[("match-a", {"type": "match.updated", "version": 3})]]


def test_a_savepoint_rolled_back_takes_its_messages_and_no_others(
    sent: list[list[Any]],
) -> None:
    with transaction.atomic():
        pushes.group_send_after_commit("match-a", {"type": "match.updated", "version": 3})
        with pytest.raises(RuntimeError), transaction.atomic():
            pushes.group_send_after_commit("events-1", {"type": "player.event", "seq": 7})
            raise RuntimeError("a subscriber failed")
        with transaction.atomic():
            pushes.group_send_after_commit("events-1", {"type": "player.event", "seq": 8})
    delivered = [message for hop in sent for message in hop]
    assert delivered == [
        ("match-a", {"type": "match.updated", "version": 3}),
        ("events-1", {"type": "player.event", "seq": 8}),
    ]
