"""The distributed setup: PostgreSQL from DATABASE_URL, the Redis channel layer from REDIS_URL.

Skipped when those are unset, unless GIN_DISTRIBUTED=1 (CI's second pass), where a missing
variable is a failure: that pass exists to prove these tests ran.
"""

from __future__ import annotations

import asyncio
import os
import threading

import pytest
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection, connections

pytestmark = pytest.mark.distributed

_MISSING = [name for name in ("DATABASE_URL", "REDIS_URL") if not os.environ.get(name)]
_REQUIRED = os.environ.get("GIN_DISTRIBUTED", "").strip().lower() in {"1", "true", "yes", "on"}


@pytest.fixture(autouse=True)
def _needs_distributed_setup() -> None:
    if not _MISSING:
        return
    message = f"distributed tests need {' and '.join(_MISSING)}"
    if _REQUIRED:
        pytest.fail(f"GIN_DISTRIBUTED is set but {message}")
    pytest.skip(message)


@pytest.mark.django_db
def test_it_uses_postgresql() -> None:
    assert connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)


def test_it_uses_the_redis_channel_layer() -> None:
    backend = settings.CHANNEL_LAYERS["default"]["BACKEND"]
    assert backend == "ginsite.serving.channel_layer.PubSubChannelLayer"


@pytest.mark.asyncio
async def test_it_delivers_a_group_message_through_redis() -> None:
    layer = get_channel_layer()
    assert layer is not None
    group = f"test-{os.getpid()}"
    channel = await layer.new_channel()
    await layer.group_add(group, channel)
    try:
        await layer.group_send(group, {"type": "match.updated", "version": 3})
        message = await asyncio.wait_for(layer.receive(channel), timeout=5)
    finally:
        await layer.group_discard(group, channel)
    assert message == {"type": "match.updated", "version": 3}


@pytest.mark.django_db(transaction=True)
def test_requests_share_the_processs_redis_connections(alice, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Django builds a cache backend per thread and per asyncio task, so every request had a
    Redis connection pool of its own: one new connection to Redis per request (each API
    request reads the rate limits in the cache). ``ginsite.serving.rediscache`` shares one."""

    import redis
    from django.test import Client

    from lobby.accounts import tokens

    secret = tokens.create(alice, "conns")[1]

    # The connections this process opens (the server's own count would hold the other test
    # workers' connections too, which share the Redis server).
    opened: list[int] = []
    connect = redis.connection.Connection._connect

    def counted(self):  # type: ignore[no-untyped-def]
        opened.append(1)
        return connect(self)

    monkeypatch.setattr(redis.connection.Connection, "_connect", counted)

    def connections_received() -> int:
        return len(opened)

    answers: list[int] = []

    def one_request() -> None:
        try:
            response = Client().get("/api/v1/me", headers={"Authorization": f"Bearer {secret}"})
            answers.append(response.status_code)
        finally:
            if threading.current_thread() is not threading.main_thread():
                connections.close_all()  # back to the pool, as at a request's end

    one_request()  # the process's pool opens its connection
    before = connections_received()
    for _ in range(20):  # each request on a thread of its own, as under ASGI
        thread = threading.Thread(target=one_request)
        thread.start()
        thread.join()
    assert answers == [200] * 21
    # Perhaps one more in the shared pool, never one per request.
    assert connections_received() - before <= 2
    # And one redis-py client for it, not a new one (with its option dicts) for every command.
    from django.core.cache import cache

    assert cache._cache.get_client() is cache._cache.get_client(write=True)


def test_a_count_in_redis_keeps_the_expiry_of_its_first_count() -> None:
    """The rate limits count in one round trip; the count still ends with its window (the
    first count sets the expiry, later ones leave it) and matches Django's own reading."""
    from django.core.cache import cache

    key = f"count-test-{os.getpid()}"
    cache.delete(key)
    assert cache.count_up(key, 60) == 1
    client = cache._cache.get_client(write=True)
    raw = cache.make_and_validate_key(key)
    client.expire(raw, 30)  # as if 30 s of its window had passed
    assert cache.count_up(key, 60) == 2
    assert 0 < client.ttl(raw) <= 30
    assert cache.get(key) == 2
    cache.delete(key)


@pytest.mark.asyncio
async def test_a_commits_messages_reach_each_group_in_order_through_one_pipeline() -> None:
    from ginsite.lib.channel_reader import ChannelReader

    layer = get_channel_layer()
    first, second = ChannelReader(layer), ChannelReader(layer)
    groups = (f"many-a-{os.getpid()}", f"many-b-{os.getpid()}")
    await layer.group_add(groups[0], await first.open())
    await layer.group_add(groups[1], await second.open())
    try:
        await layer.group_send_many(
            [
                (groups[0], {"type": "player.event", "seq": 1}),
                (groups[1], {"type": "match.updated", "version": 7}),
                (groups[0], {"type": "player.event", "seq": 2}),
            ]
        )
        assert await first.get(timeout=5) == {"type": "player.event", "seq": 1}
        assert await first.get(timeout=5) == {"type": "player.event", "seq": 2}
        assert await second.get(timeout=5) == {"type": "match.updated", "version": 7}
        assert await second.get(timeout=0.2) is None
    finally:
        await layer.group_discard(groups[0], first.channel)
        await layer.group_discard(groups[1], second.channel)
        await first.close()
        await second.close()


@pytest.mark.asyncio
async def test_a_commit_on_a_thread_is_published_without_a_turn_on_the_servers_loop() -> None:
    """A request's lane commits a move and its messages go out from that thread: the server's
    loop, which every socket of the process shares, need not run for the commit to be sent
    (here it is held up while the thread sends), and its sockets hear them in order after."""
    from ginsite.lib import after_commit
    from ginsite.lib.channel_reader import ChannelReader

    layer = get_channel_layer()
    reader = ChannelReader(layer)
    group = f"thread-{os.getpid()}"
    await layer.group_add(group, await reader.open())
    after_commit.remember_server_loop()  # as a connection to the server does
    messages = [(group, {"type": "player.event", "seq": seq}) for seq in (1, 2, 3)]
    lane = threading.Thread(target=after_commit.send_now, args=(messages,))
    try:
        lane.start()
        lane.join(timeout=10)  # the loop is held here, as a busy loop would be
        assert not lane.is_alive(), "the commit waited for the server's loop"
        for seq in (1, 2, 3):
            assert await reader.get(timeout=5) == {"type": "player.event", "seq": seq}
    finally:
        await layer.group_discard(group, reader.channel)
        await reader.close()


@pytest.mark.asyncio
async def test_a_sockets_cleanup_cut_short_by_a_workers_stop_is_one_line_not_a_traceback(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A worker that stops cancels every socket's consumer, and its channel's unsubscribe
    (waiting for the shard, busy here) is cancelled again: one INFO line per socket, not an
    ERROR with two tracebacks (a rolling restart logged one per open socket)."""
    import logging

    caplog.set_level(logging.INFO, logger="channels_redis.pubsub")
    layer = get_channel_layer()
    channel = await layer.new_channel()
    receiving = asyncio.create_task(layer.receive(channel))
    await asyncio.sleep(0.05)  # waiting for a message
    shard = layer._get_layer()._get_shard(channel)
    async with shard._lock:
        receiving.cancel()  # the consumer's end: the receive unsubscribes its channel ...
        await asyncio.sleep(0.05)  # ... and waits for the shard
        receiving.cancel()  # daphne's kill of the application at the worker's stop
        with pytest.raises(asyncio.CancelledError):
            await receiving
    noted = [r for r in caplog.records if r.name == "channels_redis.pubsub"]
    assert [(r.levelname, r.exc_info) for r in noted] == [("INFO", None)]
    assert "cleanup was cancelled" in noted[0].getMessage()
    assert "Traceback" not in caplog.text
