"""Channels group messages sent once the transaction commits, all of a commit in one hop.

A move tells its table's group and each player's event group; the messages of one commit are
gathered and sent together. Outside a transaction a message goes at once. A rolled-back
transaction sends nothing.

On Redis the committing thread publishes them itself (``publish_from_thread``). The in-memory
layer's queues live on the server's event loop, so there they are sent on that loop, and the
thread waits for them (a round trip of about 1.5 ms on the CI machine).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

log = logging.getLogger(__name__)

Message = tuple[str, dict[str, Any]]

SEND_SECONDS = 30.0  # a send on the server's loop that takes longer has failed


class _Batch:
    def __init__(self, key: tuple[str | None, ...]) -> None:
        self.key = key
        self.messages: list[Message] = []

    def flush(self) -> None:
        _batches().pop(self.key, None)
        send_now(self.messages)


_local = threading.local()


def _batches() -> dict[tuple[str | None, ...], _Batch]:
    if not hasattr(_local, "batches"):
        _local.batches = {}
    return _local.batches  # type: ignore[no-any-return]


def group_send_after_commit(group: str, message: dict[str, Any]) -> None:
    """Send ``message`` to ``group`` once the current transaction commits."""
    connection = transaction.get_connection()
    if not connection.in_atomic_block:
        send_now([(group, message)])
        return
    # One batch per savepoint the message is sent in: rolling a savepoint back drops its hook
    # and with it exactly the messages sent inside it (Django keeps the hooks by savepoint).
    key = tuple(connection.savepoint_ids)
    batches = _batches()
    batch = batches.get(key)
    if batch is None or not _waiting(batch, connection):
        # Forget the batches whose savepoint or transaction was rolled back.
        for stale in [b for b in batches.values() if not _waiting(b, connection)]:
            del batches[stale.key]
        batch = batches[key] = _Batch(key)
        transaction.on_commit(batch.flush, robust=True)
    batch.messages.append((group, message))


def _waiting(batch: _Batch, connection: Any) -> bool:
    """Is the batch's hook still waiting for the commit? (A rollback drops it.)"""
    return any(hook[1] == batch.flush for hook in connection.run_on_commit)


def send_now(messages: list[Message]) -> None:
    layer = get_channel_layer()
    if layer is None or not messages:
        return
    publish = getattr(layer, "publish_from_thread", None)
    if publish is not None and _running_loop() is None:
        # Redis (ginsite.serving.channel_layer): published from this thread, in one round
        # trip, without a turn on the server's loop, which every socket of the process shares.
        try:
            publish(messages)
        except Exception:
            _not_sent(messages)
        return

    async def send_all() -> None:
        # What was stored stays stored: a stream that misses a push catches up at its next read.
        send_many = getattr(layer, "group_send_many", None)
        if send_many is not None:  # Redis (ginsite.serving.channel_layer): one round trip
            try:
                await send_many(messages)
            except Exception:
                _not_sent(messages)
            return
        sent = await asyncio.gather(
            *(layer.group_send(group, message) for group, message in messages),
            return_exceptions=True,
        )
        for (group, message), result in zip(messages, sent, strict=True):
            if isinstance(result, BaseException):
                log.error("could not send %s to %s", message.get("type"), group, exc_info=result)

    loop = _server_loop
    if loop is not None and not loop.is_closed() and _running_loop() is not loop:
        # Sent from a thread of our own (Bea's turns, the outbox sweep) or a request's thread:
        # on the server's loop, where the in-memory layer's queues live (a send from another
        # loop would wake a waiting socket only at its next keep-alive).
        if loop.is_running() and _sent_on(loop, send_all):
            return
        # The server stopped its loop (a worker shutting down) before the send finished.
        # Waiting on it would hold the process's exit (Python joins the pool's threads) until
        # it is killed; asgiref would hand the send to that same loop. On a loop of this
        # thread's own, the other workers' sockets still hear it (Redis).
        log.warning("the server's loop has stopped: a commit's messages go from its thread")
        async_to_sync(send_all, force_new_loop=True)()
        return
    async_to_sync(send_all)()


def _sent_on(loop: asyncio.AbstractEventLoop, send_all: Callable[[], Awaitable[None]]) -> bool:
    """Run ``send_all`` on the server's ``loop`` and wait for it; False if the loop stopped
    before it finished."""
    future = asyncio.run_coroutine_threadsafe(send_all(), loop)
    deadline = time.monotonic() + SEND_SECONDS
    while True:
        try:
            future.result(timeout=0.25)
            return True
        except concurrent.futures.TimeoutError:
            if not loop.is_running() and future.cancel():
                return False
            if time.monotonic() > deadline:
                raise


_server_loop: asyncio.AbstractEventLoop | None = None


def remember_server_loop() -> None:
    """Called by the ASGI application on each connection: the loop the server runs on."""
    global _server_loop
    _server_loop = asyncio.get_running_loop()


def _running_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop running in this thread, if any."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def _not_sent(messages: list[Message]) -> None:
    """Called from an ``except``: log a commit's messages that could not be sent."""
    groups = ", ".join(group for group, _message in messages)
    log.exception("could not send a commit's messages to %s", groups)


# --- Credentials that end ----------------------------------------------------------------------


def credentials_group(user_id: int) -> str:
    """Every socket and stream a signed-in player holds open listens here for the end of the
    credentials it was opened with: a revoked token, a signed-out session, every session
    after a password change."""
    return f"credentials-{user_id}"


def credentials_ended(
    user_id: int,
    *,
    token: int | None = None,
    session: str | None = None,
    oauth: int | None = None,
    every: tuple[str, ...] = (),
) -> None:
    """Tell the player's open sockets and streams that this token, session or app's access
    token (``oauth``) is no more, or all of a kind (``every``: ``"session"``, ``"token"``): the
    ones opened with it close (4401), after the commit."""
    group_send_after_commit(
        credentials_group(user_id),
        {
            "type": "credentials.ended",
            "token": token,
            "session": session,
            "oauth": oauth,
            "every": list(every),
        },
    )


def opened_with(event: dict[str, Any], credential: tuple[str, Any]) -> bool:
    """Was a socket opened with ``credential`` (``("token", id)``, ``("oauth", id)`` or
    ``("session", key)``)
    one this ``credentials.ended`` message ends?"""
    kind, value = credential
    if kind in event.get("every", ()):
        return True
    return value is not None and event.get(kind) == value


# --- Notices for every open page of a player -----------------------------------------------------


def notices_group(user_id: int) -> str:
    """Every page socket a signed-in player holds open (the lobby's, each table's) listens
    here for a notice meant for them wherever they are: a moderator's warning, say."""
    return f"notices-{user_id}"


def page_notice(user_id: int, html_by_language: dict[str, str]) -> None:
    """After the commit, send each of the player's open pages the HTML (out-of-band swaps)
    rendered in that page's language (``SiteConsumerMixin.page_notice``)."""
    group_send_after_commit(
        notices_group(user_id), {"type": "page.notice", "html": dict(html_by_language)}
    )
