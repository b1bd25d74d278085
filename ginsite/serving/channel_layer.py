"""channels_redis' pub/sub layer, with all of a commit's group messages in one round trip, sent
from the thread that committed them.

A move wakes its table's group and each player's event group. The layer's ``group_send`` is
one PUBLISH, but each waits behind the shard's lock for the one before it: three round trips
one after another (1.6-3 ms of a move's path under daphne, docs/performance.md). Here
``group_send_many`` sends them as one pipeline per shard, in order, behind the same lock.

A commit happens on a request's lane or one of our own threads, not on the event loop. The
layer's sends are asynchronous and belong to a loop, so each commit's messages used to be
handed to the server's loop and the thread waited for them there: the loop, which every socket
and every HTTP connection of the process shares, was what a move's answer queued behind at 150
matches (docs/performance.md, issue 45). ``publish_from_thread`` publishes them with a
synchronous Redis client instead, on the committing thread, in one pipeline per shard: the loop
hears of them only as the subscriber it is, like any other process.

It reaches into the layer's own shard objects (``channels-redis`` is pinned in pyproject.toml;
``tests/test_distributed.py`` sends through both ways on Redis).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from typing import Any

import redis
from channels_redis.pubsub import RedisPubSubChannelLayer
from channels_redis.utils import _consistent_hash, decode_hosts


class PubSubChannelLayer(RedisPubSubChannelLayer):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._prefix: str = kwargs.get("prefix", "asgi")
        self._hosts: list[dict[str, Any]] = decode_hosts(kwargs.get("hosts"))
        self._clients_lock = threading.Lock()
        self._clients: list[redis.Redis] | None = None

    async def group_send_many(self, messages: list[tuple[str, dict[str, Any]]]) -> None:
        """``group_send`` of each ``(group, message)``, in order."""
        layer = self._get_layer()
        for index, published in self._by_shard(messages, len(layer._shards)).items():
            shard = layer._shards[index]
            async with shard._lock:
                shard._ensure_redis()
                pipeline = shard._redis.pipeline(transaction=False)
                for channel, data in published:
                    pipeline.publish(channel, data)
                await pipeline.execute()

    def publish_from_thread(self, messages: list[tuple[str, dict[str, Any]]]) -> None:
        """``group_send`` of each ``(group, message)``, in order, from a thread with no event
        loop: one pipeline per shard on a synchronous client (thread-safe: each send borrows a
        connection of the shard's pool). The channel names, shards and bytes are the
        asynchronous layer's own, so every subscriber hears them the same way."""
        clients = self._sync_clients()
        for index, published in self._by_shard(messages, len(clients)).items():
            pipeline = clients[index].pipeline(transaction=False)
            for channel, data in published:
                pipeline.publish(channel, data)
            pipeline.execute()

    def _by_shard(
        self, messages: list[tuple[str, dict[str, Any]]], shards: int
    ) -> dict[int, list[tuple[str, bytes]]]:
        """Each message's group channel and bytes, in order, by the index of its shard: the
        loop layer's own names (``_get_group_channel_name``) and hash (``_get_shard``), for
        both ways of sending."""
        by_shard: dict[int, list[tuple[str, bytes]]] = {}
        for group, message in messages:
            channel = f"{self._prefix}__group__{group}"
            by_shard.setdefault(_consistent_hash(channel, shards), []).append(
                (channel, self.serialize(message))
            )
        return by_shard

    def _sync_clients(self) -> list[redis.Redis]:
        with self._clients_lock:
            if self._clients is None:
                self._clients = [_client(host) for host in self._hosts]
            return self._clients


def _client(host: dict[str, Any]) -> redis.Redis:
    """A synchronous client for one of the layer's hosts (an ``address``, as ours are, or
    ``host`` and ``port``)."""
    options = dict(host)
    if "address" in options:
        address = options.pop("address")
        return redis.Redis(connection_pool=redis.ConnectionPool.from_url(address, **options))
    return redis.Redis(**options)


class CleanupCutShort(logging.Filter):
    """channels_redis's note of a socket's channel whose unsubscribe was itself cancelled, as
    one INFO line instead of an ERROR with two tracebacks. When a worker stops, daphne cancels
    every socket's consumer ("Killed N pending application instances"); the layer's receive,
    cancelled, unsubscribes its channel and waits for the shard's lock to do so, and the second
    cancel of the stop cuts that short. Nothing is lost: the process's connection to Redis, and
    every subscription on it, ends with the process. A rolling restart logged one such ERROR
    per open socket, 75 at once in ``bench.live``'s stop, which hid any real one."""

    def filter(self, record: logging.LogRecord) -> bool:
        cut_short = record.exc_info is not None and isinstance(
            record.exc_info[1], asyncio.CancelledError
        )
        if cut_short and str(record.msg).startswith("Unexpected exception while cleaning-up"):
            record.levelno, record.levelname = logging.INFO, "INFO"
            record.msg = "a socket's channel left unsubscribed: its cleanup was cancelled"
            record.args, record.exc_info, record.exc_text = (), None, None
        return True
