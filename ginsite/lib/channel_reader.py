"""A channel of the channel layer, read in one task while it is open, so that a stream can wait
on it with a timeout and lose nothing.

The Redis layer is channels_redis' pub/sub layer (``settings.CHANNEL_LAYERS``): a group send
is one PUBLISH, and each process holds one subscription that hands messages to its channels'
queues in memory. That layer forgets a channel whose ``receive`` is cancelled: it unsubscribes
it, as a consumer's end should. A stream that waits for its next message with a timeout (to
send a keep-alive when it is quiet) would cancel the receive at every timeout, and whatever
was sent before its next receive began would be dropped. A ``ChannelReader`` receives in one
task for as long as it is open, into a queue of its own that can be waited on with a timeout;
the receive is cancelled only by ``close``, which is what frees the channel. (Nothing to do
with ``games.outbox``, which stores what a change announces.)
"""

from __future__ import annotations

import asyncio
from typing import Any


class ChannelReader:
    def __init__(self, layer: Any, prefix: str = "specific.") -> None:
        self._layer = layer
        self._prefix = prefix
        self._queue: asyncio.Queue[dict[str, Any] | BaseException] = asyncio.Queue()
        self._receiving: asyncio.Task[None] | None = None
        self.channel = ""

    async def open(self) -> str:
        """A new channel of the layer, received on from now on: its name."""
        self.channel = await self._layer.new_channel(self._prefix)
        self._receiving = asyncio.create_task(self._read())
        return self.channel

    async def _read(self) -> None:
        try:
            while True:
                self._queue.put_nowait(await self._layer.receive(self.channel))
        except Exception as error:  # the layer failed (Redis gone): the waiter hears of it
            self._queue.put_nowait(error)

    def put(self, message: dict[str, Any]) -> None:
        """Hand the waiter a message of the process's own, behind those already received."""
        self._queue.put_nowait(message)

    async def get(self, timeout: float) -> dict[str, Any] | None:
        """The next message, or None when none came within ``timeout`` seconds. Raises what
        the layer raised if it failed."""
        try:
            item = await asyncio.wait_for(self._queue.get(), timeout=timeout)
        except TimeoutError:
            return None
        if isinstance(item, BaseException):
            raise item
        return item

    async def close(self) -> None:
        if self._receiving is not None:
            self._receiving.cancel()
            # Waits for the layer's clean-up without taking in the reader's CancelledError.
            await asyncio.wait({self._receiving})
            self._receiving = None
