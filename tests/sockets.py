"""The websocket test client every test uses: channels' ``WebsocketCommunicator``, waiting up to
``PATIENCE`` seconds by default instead of 1.

A connect, a close or a push runs database work in a thread pool, which a busy 2-core machine
(the suite beside other suites) can take longer than a second to get through; the test then
failed by chance, or a close cut short left a seat counted as connected. Tests wait for the
event they expect; this is only the ceiling after which waiting fails them. (``receive_nothing``
keeps its own short timeout: it asserts silence, and a longer one would only slow it.)
"""

from __future__ import annotations

from typing import Any

from channels.testing import WebsocketCommunicator

PATIENCE = 10.0


class Socket(WebsocketCommunicator):
    async def connect(self, timeout: float = PATIENCE) -> Any:
        return await super().connect(timeout)

    async def receive_from(self, timeout: float = PATIENCE) -> Any:
        return await super().receive_from(timeout)

    async def receive_json_from(self, timeout: float = PATIENCE) -> Any:
        return await super().receive_json_from(timeout)

    async def receive_output(self, timeout: float = PATIENCE) -> Any:
        return await super().receive_output(timeout)

    async def disconnect(self, code: int = 1000, timeout: float = PATIENCE) -> None:
        await super().disconnect(code, timeout)
