"""HTTP requests on a fixed set of long-lived threads ("lanes").

Django's ASGI handler runs each request's synchronous work (the middleware, a sync view) on a
thread of its own, started for the request and stopped after it. Database connections belong
to a thread, so every request also opened a new one: with SQLite a new connection and its
pragmas for every move, ``CONN_MAX_AGE`` notwithstanding. Here a request borrows one of
``size`` lanes, a single-thread executor that lives as long as the process (asgiref's
``ThreadSensitiveContext(executor=...)``), and gives it back when its answer is sent: a lane's
connection lives on, and no thread starts or stops per request. A request that finds every
lane busy waits (on the event loop, holding no thread) for the first lane given back.

It used to be served at once on a thread of its own. Under a burst (500 players pressing
"Play now" at once, ``bench.pool``) that meant some 230 threads per process beside the 20
lanes, each wanting one of the database pool's 20 connections (10 s waits, 503s) and a
connection of the Redis cache's pool of 100 ("Too many connections", 500s;
docs/performance.md, the pool). The lanes are as many as the pool's connections, so a request
that has a lane never waits for the database.

On its lane a request runs Django's synchronous handler, the middleware and the view in one
go, as under WSGI. Django's asynchronous chain would hop from the lane to the event loop and
back around each async-capable middleware and again for the (sync) view: round trips through
the loop, each waiting its turn behind the sockets' work there.

A streaming answer (the NDJSON event stream) may last for hours: it holds a lane only while it
opens, until its first line is sent (the middleware, the token's check, the catch-up: its
database work), and gives it back for the hours it waits for news. Without that, 300 players
opening their streams in a few seconds (``bench.arena``) ran some 150 openings per process
beside the lanes' requests, each on a thread of its own wanting a connection: the pool ran out
and a hundred requests waited 10 s for a 503.
"""

from __future__ import annotations

import asyncio
import contextvars
import threading
import time
from collections import deque
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.core.handlers.asgi import ASGIHandler
from django.core.handlers.base import BaseHandler
from django.http import HttpRequest, HttpResponseBase

from ginsite.lib import timeline

# Set while a request holds a lane (the handler's tasks copy the context).
_on_lane: contextvars.ContextVar[bool] = contextvars.ContextVar("on_lane", default=False)


class Lanes:
    """The free lanes, last in first out (a quiet site keeps using one warm lane), and the
    requests waiting for one, first come first served. Thread-safe and bound to no event
    loop (the test suite serves requests from many)."""

    def __init__(self, size: int) -> None:
        self._lock = threading.Lock()
        # The thread itself starts with the lane's first request.
        self._free = [
            ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"lane{number}")
            for number in reversed(range(size))
        ]
        self._waiting: deque[asyncio.Future[ThreadPoolExecutor]] = deque()

    async def take(self) -> ThreadPoolExecutor:
        with self._lock:
            if self._free:
                return self._free.pop()
            waiter = asyncio.get_running_loop().create_future()
            self._waiting.append(waiter)
        try:
            return await waiter
        except asyncio.CancelledError:
            with self._lock:
                if waiter in self._waiting:
                    self._waiting.remove(waiter)
            if waiter.done() and not waiter.cancelled():
                self.give_back(waiter.result())  # handed over just as we were cancelled
            raise

    def give_back(self, lane: ThreadPoolExecutor) -> None:
        """To the first request still waiting, on its own loop; else to the free ones."""
        with self._lock:
            while self._waiting:
                waiter = self._waiting.popleft()
                try:
                    waiter.get_loop().call_soon_threadsafe(self._hand, waiter, lane)
                    return
                except RuntimeError:  # its loop is closed: the request is gone
                    continue
            self._free.append(lane)

    def _hand(self, waiter: asyncio.Future[ThreadPoolExecutor], lane: ThreadPoolExecutor) -> None:
        if waiter.done():  # cancelled meanwhile (the client went away): the next one
            self.give_back(lane)
        else:
            waiter.set_result(lane)


class LanedASGIHandler(ASGIHandler):
    def __init__(self, size: int, *, streaming_paths: tuple[str, ...] = ()) -> None:
        super().__init__()
        self.streaming_paths = streaming_paths
        self.lanes = Lanes(size)
        # The same middleware, built once more as a synchronous chain for the lanes.
        self._sync = BaseHandler()
        self._sync.load_middleware(is_async=False)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return await super().__call__(scope, receive, send)
        if scope.get("path", "").startswith(self.streaming_paths):
            return await self._stream(scope, receive, send)
        asked = time.perf_counter()
        lane = await self.lanes.take()
        taken = time.perf_counter()
        token = _on_lane.set(True)
        try:
            async with ThreadSensitiveContext(executor=lane):
                await self.handle(scope, receive, send)
        finally:
            _on_lane.reset(token)
            self.lanes.give_back(lane)
            if timeline.ON:
                held, wait = (time.perf_counter() - taken) * 1000, (taken - asked) * 1000
                timeline.note("lane", asked, held, wait=round(wait, 2), path=scope.get("path"))

    async def _stream(self, scope: Any, receive: Any, send: Any) -> None:
        """A stream waits for a lane to open and gives it back with its first line of body
        (or its end): Django's asynchronous chain serves it, off the lane's thread."""
        lane: ThreadPoolExecutor | None = await self.lanes.take()

        def give_back() -> None:
            nonlocal lane
            if lane is not None:
                self.lanes.give_back(lane)
                lane = None

        async def opened(message: Mapping[str, Any]) -> None:
            await send(message)
            if message["type"] == "http.response.body":
                give_back()

        try:
            await super().__call__(scope, receive, opened)
        finally:
            give_back()

    async def get_response_async(self, request: HttpRequest) -> HttpResponseBase:
        if _on_lane.get():
            # The whole request on the lane, one hop there and one back.
            return await sync_to_async(self._sync.get_response, thread_sensitive=True)(request)  # type: ignore[no-any-return]
        return await super().get_response_async(request)
