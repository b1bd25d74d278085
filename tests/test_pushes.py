"""ginsite.lib.after_commit: a commit's Channels messages go in one hop, after the commit, and a
rolled-back transaction sends none."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import get_channel_layer
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


def test_a_commit_whose_server_stops_is_still_told_and_lets_the_worker_exit(
    monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    """A worker told to stop (a deploy) stops its event loop while a move's thread is still
    committing. The move's push goes anyway (the other workers' players hear it), and the thread
    ends, so the worker exits instead of waiting to be killed."""
    # The in-memory layer on either pass: what is tested is where the send runs, and it lets
    # this process read the group's message (Redis keeps a channel to the loop that made it).
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)("match-a", channel)
    server = asyncio.new_event_loop()
    monkeypatch.setattr(pushes, "_server_loop", server)
    committing, stopped, told = threading.Event(), threading.Event(), threading.Event()

    def move() -> None:  # a move's thread (sync_to_async), past its commit
        committing.set()
        stopped.wait(10)
        pushes.send_now([("match-a", {"type": "match.updated", "version": 3})])
        told.set()

    request = server.create_task(sync_to_async(move, thread_sensitive=False)())
    running = threading.Thread(target=server.run_forever)
    running.start()
    try:
        assert committing.wait(10)
        server.call_soon_threadsafe(server.stop)
        running.join(10)
        assert not server.is_running()
        stopped.set()
        assert told.wait(20), "the move's thread waited on the stopped loop"
        assert async_to_sync(layer.receive)(channel)["version"] == 3
    finally:
        stopped.set()
        server.run_until_complete(request)
        server.close()
