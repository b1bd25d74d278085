"""Reading the NDJSON event stream straight from the ASGI application, as a server would serve
it: the test client would wait for a never-ending body."""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from channels.testing import WebsocketCommunicator

from ginsite.asgi import application


class NdjsonStream:
    def __init__(self, path: str, query: str = "", headers: list[tuple[bytes, bytes]] = ()):
        self.scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "GET",
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": query.encode(),
            "headers": [(b"host", b"testserver"), *headers],
            "client": ("127.0.0.1", 50000),
            "server": ("testserver", 80),
        }
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.outbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.buffer = b""
        self.status = 0
        self.headers: dict[str, str] = {}

    async def open(self) -> None:
        await self.inbox.put({"type": "http.request", "body": b"", "more_body": False})
        self.task = asyncio.create_task(application(self.scope, self.inbox.get, self.outbox.put))
        start = await asyncio.wait_for(self.outbox.get(), timeout=10)
        assert start["type"] == "http.response.start"
        self.status = start["status"]
        self.headers = {k.decode().lower(): v.decode() for k, v in start["headers"]}

    async def line(self, timeout: float = 10) -> dict[str, Any]:
        while b"\n" not in self.buffer:
            message = await asyncio.wait_for(self.outbox.get(), timeout=timeout)
            assert message["type"] == "http.response.body"
            self.buffer += message.get("body", b"")
            if not message.get("more_body", False) and b"\n" not in self.buffer:
                raise EOFError(self.buffer.decode())
        raw, self.buffer = self.buffer.split(b"\n", 1)
        return dict(json.loads(raw))

    async def body(self) -> bytes:
        """The whole body of a response that ends (a refusal)."""
        while True:
            message = await asyncio.wait_for(self.outbox.get(), timeout=10)
            self.buffer += message.get("body", b"")
            if not message.get("more_body", False):
                return self.buffer

    async def close(self) -> None:
        await self.inbox.put({"type": "http.disconnect"})
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(self.task, timeout=10)


async def closed_code(comm: WebsocketCommunicator) -> int:
    """The close code of ``comm``, reading past the frames that come before it."""
    while True:
        output = await comm.receive_output(timeout=5)
        if output["type"] == "websocket.close":
            return int(output["code"])


async def closes_within(comm: WebsocketCommunicator, seconds: float) -> bool:
    """Whether ``comm`` is closed within ``seconds``, reading past the frames it is sent.
    (Waiting on ``receive_output`` would cancel the application when it times out.)"""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while (left := deadline - loop.time()) > 0:
        if await comm.receive_nothing(timeout=left):
            return False
        if (await comm.receive_output())["type"] == "websocket.close":
            return True
    return False
