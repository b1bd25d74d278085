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
docs/performance.md, the pool). The lanes (``HTTP_LANES`` and ``HTTP_SLOW_LANES``) are fewer
than the pool's connections, so a request that has a lane never waits for the database.

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
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.core.handlers.base import BaseHandler
from django.http import FileResponse, HttpResponseBase
from django.urls import set_script_prefix

from ginsite.lib import timeline

# Set while a request holds a lane (the handler's tasks copy the context).
_on_lane: contextvars.ContextVar[bool] = contextvars.ContextVar("on_lane", default=False)


class Lanes:
    """The free lanes, last in first out (a quiet site keeps using one warm lane), and the
    requests waiting for one, first come first served. Thread-safe and bound to no event
    loop (the test suite serves requests from many)."""

    def __init__(self, size: int, name: str = "lane") -> None:
        self._lock = threading.Lock()
        # The thread itself starts with the lane's first request.
        self._free = [
            ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"{name}{number}")
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
    """``size`` lanes for every request but those under ``slow_paths``, which take one of
    ``slow_size`` lanes of their own: a password's hash (a sign-in, a sign-up, a new password,
    an app's token) holds its lane for a good part of a second, and a burst of them on the
    few lanes would hold every move of the process behind them."""

    def __init__(
        self,
        size: int,
        *,
        streaming_paths: tuple[str, ...] = (),
        slow_paths: tuple[str, ...] = (),
        slow_size: int = 1,
    ) -> None:
        super().__init__()
        self.streaming_paths = streaming_paths
        self.slow_paths = slow_paths  # none: ``startswith(())`` is False for every path
        self.lanes = Lanes(size)
        self.slow_lanes = Lanes(slow_size, "slow-lane") if slow_paths else self.lanes
        # The same middleware, built once more as a synchronous chain for the lanes.
        self._sync = BaseHandler()
        self._sync.load_middleware(is_async=False)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return await super().__call__(scope, receive, send)
        path = scope.get("path", "")
        if path.startswith(self.streaming_paths):
            return await self._stream(scope, receive, send)
        lanes = self.slow_lanes if path.startswith(self.slow_paths) else self.lanes
        asked = time.perf_counter()
        lane = await lanes.take()
        taken = time.perf_counter()
        token = _on_lane.set(True)
        try:
            async with ThreadSensitiveContext(executor=lane):
                await self.handle(scope, receive, send)
        finally:
            _on_lane.reset(token)
            lanes.give_back(lane)
            if timeline.ON:
                held, wait = (time.perf_counter() - taken) * 1000, (taken - asked) * 1000
                timeline.note("lane", asked, held, wait=round(wait, 2), path=path)

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

    async def handle(self, scope: Any, receive: Any, send: Any) -> None:
        """A request on a lane: its body read on the loop, then everything Django does for it
        in one hop to the lane (the request's signals, the middleware, the view, and the
        closing of an answer already in memory), then its answer sent from the loop. Django's
        own ``handle`` went to a thread three times (``request_started``, the view,
        ``response.close``): each hop a turn on the loop and a hand-over of the interpreter,
        5% of a worker's time at 150 matches (docs/performance.md, issue 45). A client gone
        meanwhile does not stop a synchronous view in Django either."""
        if not _on_lane.get():
            return await super().handle(scope, receive, send)
        try:
            body = await self.read_body(receive)
        except RequestAborted:
            return
        response = await sync_to_async(self._serve, thread_sensitive=True)(scope, body)
        try:
            await self.send_response(response, send)
        except asyncio.CancelledError:
            pass  # the client went away while it was sent
        finally:
            if response.streaming:  # closed once its last part is sent, as Django does
                await sync_to_async(response.close, thread_sensitive=True)()

    def _serve(self, scope: Any, body: Any) -> HttpResponseBase:
        """On the lane: Django's ``handle`` and ``run_get_response`` as one synchronous call."""
        try:
            set_script_prefix(get_script_prefix(scope))
            signals.request_started.send(sender=self.__class__, scope=scope)
            request, response = self.create_request(scope, body)
            if request is not None:
                response = self._sync.get_response(request)
                response._handler_class = self.__class__  # type: ignore[attr-defined]
                if isinstance(response, FileResponse):
                    response.block_size = self.chunk_size
            if not response.streaming:
                # Its bytes are in memory: closed now (``request_finished``: the connection
                # kept or closed, as after any request), not in a hop of its own after sending.
                response.close()
            return response  # type: ignore[no-any-return]
        finally:
            body.close()
