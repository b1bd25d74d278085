"""Database work of the websocket consumers and event streams, run off the event loop.

Channels' ``database_sync_to_async`` runs every call on the process's one shared sync thread
by default, so the deliveries, heartbeats, sign-ins and presence of every socket of a
process queued behind each other (and behind every sync view). Socket work touches no
request-bound state, so it runs on the event loop's thread pool instead, each call with
Django's connection handling around it (a pooled connection under PostgreSQL).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from channels.db import database_sync_to_async


def in_thread(fn: Callable[..., Any]) -> Any:
    """``fn`` as an awaitable that runs in a pool thread."""
    return database_sync_to_async(fn, thread_sensitive=False)
