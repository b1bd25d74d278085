"""channels_redis' pub/sub layer, with all of a commit's group messages in one round trip.

A move wakes its table's group and each player's event group. The layer's ``group_send`` is
one PUBLISH, but each waits behind the shard's lock for the one before it: three round trips
one after another (1.6-3 ms of a move's path under daphne, docs/performance.md). Here
``group_send_many`` sends them as one pipeline per shard, in order, behind the same lock.
It reaches into the layer's own shard objects (``channels-redis`` is pinned in
pyproject.toml; ``tests/test_distributed.py`` sends through it on Redis).
"""

from __future__ import annotations

from typing import Any

from channels_redis.pubsub import RedisPubSubChannelLayer


class PubSubChannelLayer(RedisPubSubChannelLayer):
    async def group_send_many(self, messages: list[tuple[str, dict[str, Any]]]) -> None:
        """``group_send`` of each ``(group, message)``, in order."""
        layer = self._get_layer()
        by_shard: dict[Any, list[tuple[str, bytes]]] = {}
        for group, message in messages:
            channel = layer._get_group_channel_name(group)
            shard = layer._get_shard(channel)
            by_shard.setdefault(shard, []).append((channel, self.serialize(message)))
        for shard, published in by_shard.items():
            async with shard._lock:
                shard._ensure_redis()
                pipeline = shard._redis.pipeline(transaction=False)
                for channel, data in published:
                    pipeline.publish(channel, data)
                await pipeline.execute()
