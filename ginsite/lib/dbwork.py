"""Database work of the websocket consumers and event streams, run off the event loop.

Channels' ``database_sync_to_async`` runs every call on the process's one shared sync thread
by default, so the deliveries, heartbeats, sign-ins and presence of every socket of a
process queued behind each other (and behind every sync view). Socket work touches no
request-bound state, so it runs on the event loop's thread pool instead, each call with
Django's connection handling around it (a pooled connection under PostgreSQL).

The connections are closed inside the call itself: since asgiref 3.12 the function runs in a
context of its own (``context.run``) while Channels closes "old connections" outside it, in
the worker thread's bare context, where it never sees the connection the call opened. Each
such connection stayed checked out of the pool for good (tests/distributed/
test_pooled_connections.py).
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import Any

from asgiref.sync import sync_to_async
from django.db import close_old_connections

from ginsite.lib import timeline


def in_thread(fn: Callable[..., Any]) -> Any:
    """``fn`` as an awaitable that runs in a pool thread and gives back its connections."""

    @functools.wraps(fn)
    def closing(*args: Any, **kwargs: Any) -> Any:
        close_old_connections()
        try:
            return fn(*args, **kwargs)
        finally:
            close_old_connections()

    if not timeline.ON:
        return sync_to_async(closing, thread_sensitive=False)
    return _noted(closing, getattr(fn, "__qualname__", repr(fn)))


def _noted(closing: Callable[..., Any], name: str) -> Any:
    """``closing`` in a pool thread, each call's wait for a thread and its run on the
    timeline (``ginsite.lib.timeline``, for the live benchmark)."""

    def run(submitted: float, *args: Any, **kwargs: Any) -> Any:
        began = time.perf_counter()
        try:
            return closing(*args, **kwargs)
        finally:
            ms = (time.perf_counter() - began) * 1000
            wait = (began - submitted) * 1000
            if wait + ms >= timeline.POOL_FROM_MS:
                timeline.note("pool", submitted, ms, wait=round(wait, 2), name=name)

    in_pool = sync_to_async(run, thread_sensitive=False)

    @functools.wraps(closing)
    async def call(*args: Any, **kwargs: Any) -> Any:
        return await in_pool(time.perf_counter(), *args, **kwargs)

    return call
