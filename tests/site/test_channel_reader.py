"""A stream waits for its next push with a timeout (a keep-alive when it is quiet) and loses
nothing sent after the wait ran out. With the Redis pub/sub layer (CI's second pass) a
receive cancelled by a timeout unsubscribes its channel, and what came before the next
receive was dropped; ``ginsite.lib.channel_reader.ChannelReader`` keeps one receive running
instead."""

from __future__ import annotations

import pytest
from channels.layers import get_channel_layer

from ginsite.lib.channel_reader import ChannelReader

pytestmark = pytest.mark.asyncio


async def test_a_push_sent_after_a_quiet_wait_still_arrives() -> None:
    layer = get_channel_layer()
    reader = ChannelReader(layer)
    channel = await reader.open()
    await layer.group_add("reader-test", channel)
    try:
        assert await reader.get(timeout=0.2) is None  # quiet: the stream would send a keep-alive
        await layer.group_send("reader-test", {"type": "event.pushed", "seq": 1})
        await layer.group_send("reader-test", {"type": "event.pushed", "seq": 2})
        assert await reader.get(timeout=5) == {"type": "event.pushed", "seq": 1}
        assert await reader.get(timeout=5) == {"type": "event.pushed", "seq": 2}
    finally:
        await layer.group_discard("reader-test", channel)
        await reader.close()


async def test_a_failing_layer_is_raised_to_the_waiter() -> None:
    class Broken:
        async def new_channel(self, prefix: str = "specific.") -> str:
            return prefix + "x"

        async def receive(self, channel: str) -> dict[str, str]:
            raise ConnectionError("Redis is gone")

    reader = ChannelReader(Broken())
    await reader.open()
    with pytest.raises(ConnectionError, match="Redis is gone"):
        await reader.get(timeout=5)
    await reader.close()
