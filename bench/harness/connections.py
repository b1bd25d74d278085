"""The clients' connections: a small keep-alive HTTP/1.1 client, websockets opened and closed."""

from __future__ import annotations

import asyncio
import contextlib
import json
import ssl
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from bench.harness.pacing import limited

HTTP_TIMEOUT = 30.0
CONNECT_CONCURRENCY = 8


@dataclass
class Reply:
    status: int
    body: bytes
    headers: dict[str, str] = field(default_factory=dict)

    def json(self) -> Any:
        return json.loads(self.body) if self.body else None

    @property
    def code(self) -> str:
        """The API's error code, when the body has one."""
        with contextlib.suppress(ValueError, AttributeError):
            return str(self.json().get("code", ""))
        return ""


class Http:
    """One keep-alive connection to one server, one request at a time, as a simple API
    client holds it. A request that meets a connection the server closed while it was idle
    is sent again once on a new one (safe: every POST carries an ``Idempotency-Key``). With
    ``fresh``, a new connection for every request, closed after its answer, as a client on
    ``urllib`` makes them (``ginclient``)."""

    def __init__(
        self, port: int, token: str = "", *, fresh: bool = False, tls: ssl.SSLContext | None = None
    ) -> None:
        self.port, self.token, self.fresh, self.tls = port, token, fresh, tls
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.lock = asyncio.Lock()
        self.resent = 0

    async def call(
        self,
        method: str,
        path: str,
        payload: Any = None,
        *,
        idempotent: bool = False,
        headers: Sequence[str] = (),
    ) -> Reply:
        body = b"" if payload is None else json.dumps(payload).encode()
        head = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{self.port}"]
        if self.token:
            head.append(f"Authorization: Bearer {self.token}")
        if method != "GET":
            head += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
        if idempotent:
            head.append(f"Idempotency-Key: {uuid.uuid4()}")
        if self.fresh:
            head.append("Connection: close")
        head += headers
        request = ("\r\n".join(head) + "\r\n\r\n").encode() + body
        async with self.lock:
            try:
                async with asyncio.timeout(HTTP_TIMEOUT):
                    reply = await self._send(request)
            except BaseException:
                self.close()  # whatever the connection holds now is unknown
                raise
            if self.fresh:
                self.close()
            return reply

    async def _send(self, request: bytes) -> Reply:
        for attempt in range(2):
            reused = self.writer is not None
            if self.reader is None or self.writer is None:
                self.reader, self.writer = await asyncio.open_connection(
                    "127.0.0.1",
                    self.port,
                    ssl=self.tls,
                    server_hostname="localhost" if self.tls else None,
                )
            try:
                self.writer.write(request)
                await self.writer.drain()
                return await self._read(self.reader)
            except (ConnectionError, asyncio.IncompleteReadError):
                self.close()
                if not reused or attempt:
                    raise
                self.resent += 1
        raise AssertionError("unreachable")

    async def _read(self, reader: asyncio.StreamReader) -> Reply:
        lines = (await reader.readuntil(b"\r\n\r\n")).decode("latin1").split("\r\n")
        status = int(lines[0].split()[1])
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        if "content-length" in headers:
            body = await reader.readexactly(int(headers["content-length"]))
        elif headers.get("transfer-encoding", "").lower() == "chunked":
            body = await self._chunks(reader)
        else:
            body = await reader.read()
            self.close()
        if headers.get("connection", "").lower() == "close":
            self.close()
        return Reply(status, body, headers)

    @staticmethod
    async def _chunks(reader: asyncio.StreamReader) -> bytes:
        parts = []
        while size := int((await reader.readline()).split(b";")[0], 16):
            parts.append(await reader.readexactly(size))
            await reader.readexactly(2)
        while (await reader.readline()) not in (b"\r\n", b""):
            pass  # trailers
        return b"".join(parts)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


def _why(error: BaseException) -> str:
    """An error's name, and for a socket the server closed, the code it closed with."""
    received = getattr(error, "rcvd", None)
    return type(error).__name__ + (f" {received.code}" if received is not None else "")


async def open_socket(url: str, tls: ssl.SSLContext | None = None) -> ClientConnection:
    return await connect(url, max_size=None, compression=None, open_timeout=HTTP_TIMEOUT, ssl=tls)


async def close_sockets(sockets: list[ClientConnection]) -> None:
    """Close sockets a few at a time. (All at once, a hundred closes make a hundred
    concurrent ``group_discard`` calls, more than channels_redis's pool of 100 connections:
    the server logs MaxConnectionsError, which would be the teardown's doing, not the run's.)"""
    await limited([lambda ws=ws: ws.close() for ws in sockets], CONNECT_CONCURRENCY)
