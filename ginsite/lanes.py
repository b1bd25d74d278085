"""HTTP requests on a fixed set of long-lived threads ("lanes").

Django's ASGI handler runs each request's synchronous work (the middleware, a sync view) on a
thread of its own, started for the request and stopped after it. Database connections belong
to a thread, so every request also opened a new one: with SQLite a new connection and its
pragmas for every move, ``CONN_MAX_AGE`` notwithstanding. Here a request borrows one of
``size`` lanes, a single-thread executor that lives as long as the process (asgiref's
``ThreadSensitiveContext(executor=...)``), and gives it back when its answer is sent: a lane's
connection lives on, and no thread starts or stops per request. A request that finds every
lane busy is served as Django serves it, on a thread of its own.

On its lane a request runs Django's synchronous handler, the middleware and the view in one
go, as under WSGI. Django's asynchronous chain would hop from the lane to the event loop and
back around each async-capable middleware and again for the (sync) view: round trips through
the loop, each waiting its turn behind the sockets' work there.

A streaming answer (the NDJSON event stream) may last for hours: it never takes a lane.
"""

from __future__ import annotations

import contextlib
import contextvars
import queue
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.core.handlers.asgi import ASGIHandler
from django.core.handlers.base import BaseHandler
from django.http import HttpRequest, HttpResponseBase

# Set while a request holds a lane (the handler's tasks copy the context).
_on_lane: contextvars.ContextVar[bool] = contextvars.ContextVar("on_lane", default=False)


class LanedASGIHandler(ASGIHandler):
    def __init__(self, size: int, *, streaming_paths: tuple[str, ...] = ()) -> None:
        super().__init__()
        self.streaming_paths = streaming_paths
        # Thread-safe and bound to no event loop (the test suite serves requests from many);
        # last in, first out, so that a quiet site keeps using one warm lane.
        self._free: queue.LifoQueue[ThreadPoolExecutor] = queue.LifoQueue()
        for number in range(size):
            # The thread itself starts with the lane's first request.
            self._free.put(ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"lane{number}"))
        # The same middleware, built once more as a synchronous chain for the lanes.
        self._sync = BaseHandler()
        self._sync.load_middleware(is_async=False)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        lane = None
        if scope["type"] == "http" and not scope.get("path", "").startswith(self.streaming_paths):
            with contextlib.suppress(queue.Empty):  # every lane busy: a thread of its own
                lane = self._free.get_nowait()
        if lane is None:
            return await super().__call__(scope, receive, send)
        token = _on_lane.set(True)
        try:
            async with ThreadSensitiveContext(executor=lane):
                await self.handle(scope, receive, send)
        finally:
            _on_lane.reset(token)
            self._free.put(lane)

    async def get_response_async(self, request: HttpRequest) -> HttpResponseBase:
        if _on_lane.get():
            # The whole request on the lane, one hop there and one back.
            return await sync_to_async(self._sync.get_response, thread_sensitive=True)(request)  # type: ignore[no-any-return]
        return await super().get_response_async(request)
