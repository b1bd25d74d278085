"""What the site's websocket consumers share: the handshake's headers, background tasks that
end with the consumer that started them, the same behaviour under any ASGI server, and the
notices meant for a page's player wherever they are (``page_notice``, from ``notices_group``).

A consumer's heartbeat, event pump or push flusher runs as its own asyncio task. The
consumer's ``disconnect`` stops it when the close is handled, but a server may also cancel an
application outright: daphne does when the client is gone and the consumer has not finished
within ``application_close_timeout`` (10 s; say its database work was stuck), and at shutdown.
No disconnect handler runs then, and a task created with ``asyncio.create_task`` would go on
for ever: a table beating for a page nobody has open (its player "online" in the lobby), an
event pump keeping a vanished client's presence. Tasks started here are cancelled whenever
the consumer ends, however it ends.

Every message a consumer handles (a frame from its client, a push from the channel layer)
goes straight to its handler. Channels' own ``dispatch`` first hops to the process's one
shared sync thread to close "old connections" there: a thread the site's consumers never use
for the database (``ginsite.lib.dbwork``, whose calls close their own), in a context of its own
that sees no connection anyway (asgiref 3.12). So it closed nothing, and every push and every
move sent over a socket queued on that one thread behind all the others.

A frame sent after the client has gone is dropped. daphne drops it itself; uvicorn and other
servers raise an ``OSError`` of their own (as the ASGI spec asks), which would otherwise end
the consumer with a traceback for a page that was merely closed.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Coroutine, Iterator
from typing import Any

from channels.consumer import get_handler_name
from django.conf import settings


def headers(scope: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """A websocket handshake's headers: names in lower case, values decoded as HTTP sends
    them (latin-1)."""
    for name, value in scope.get("headers") or ():
        yield name.decode("latin1").lower(), value.decode("latin1")


def header(scope: dict[str, Any], name: str) -> str | None:
    """The handshake's header ``name`` (lower case), or None."""
    return next((value for key, value in headers(scope) if key == name), None)


class SiteConsumerMixin:
    """Mix into an ``AsyncConsumer`` (before it): ``self.start_task(coro)`` instead of
    ``asyncio.create_task(coro)``, and sends to a client that has gone dropped."""

    async def dispatch(self, message: dict[str, Any]) -> None:
        """The message's handler, without Channels' hop to the shared sync thread first."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def send(self, *args: Any, **kwargs: Any) -> None:
        with contextlib.suppress(OSError):  # the client is gone: nobody is left to tell
            await super().send(*args, **kwargs)  # type: ignore[misc]

    async def page_notice(self, event: dict[str, Any]) -> None:
        """A notice for this page's player (``ginsite.lib.after_commit.page_notice``), already
        rendered in each language: the one of the page's own (``self.language``) goes out."""
        html = event.get("html") or {}
        language = getattr(self, "language", settings.LANGUAGE_CODE)
        text = html.get(language) or html.get(settings.LANGUAGE_CODE) or ""
        if text:
            await self.send(text_data=text)

    def start_task(self, coro: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        owned: set[asyncio.Task[None]] = self.__dict__.setdefault("_owned_tasks", set())
        task = asyncio.create_task(coro)
        owned.add(task)
        task.add_done_callback(owned.discard)
        return task

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        try:
            await super().__call__(scope, receive, send)  # type: ignore[misc]
        finally:
            for task in list(self.__dict__.get("_owned_tasks", ())):
                task.cancel()
