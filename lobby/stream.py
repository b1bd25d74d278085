"""/ws/events/: a player's event stream over a websocket (the NDJSON stream's twin).

Sign in with a personal token (``Authorization: Bearer`` header, or ``?token=`` for clients
that cannot set headers, such as a browser's WebSocket) or with the session. The session is a
cookie the browser sends by itself, so a session socket must come from one of the site's own
origins; a token is never sent by itself, so a token socket may come from anywhere (a phone,
a bot), with or without an Origin header.

Frames are the same JSON objects as the NDJSON lines: ``hello``, events, ``keepalive``.
Clients may send ``{"type": "ping"}`` (answered with ``pong``); nothing else is understood.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import uuid
from typing import Any
from urllib.parse import parse_qs, urlparse

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.security.websocket import AllowedHostsOriginValidator

from ginsite.apikit import ApiError, check_rate
from lobby import tokens
from lobby.api import event_lines

CLOSE_UNAUTHENTICATED = 4401
CLOSE_RATE_LIMITED = 4429
CLOSE_SERVER_ERROR = 1011
MAX_FRAME = 1024

log = logging.getLogger(__name__)


def _header(scope: dict[str, Any], name: bytes) -> str | None:
    for key, value in scope.get("headers") or ():
        if key.lower() == name:
            return str(value.decode("latin1"))
    return None


def _same_site(scope: dict[str, Any]) -> bool:
    origin = _header(scope, b"origin")
    if origin is None:
        return False
    validator = AllowedHostsOriginValidator(None)
    return bool(validator.valid_origin(urlparse(origin)))


def _authenticate(scope: dict[str, Any], query: dict[str, list[str]]) -> Any:
    """The player this socket is for, or None. Raises ApiError when rate limited."""
    secret = tokens.bearer(_header(scope, b"authorization")) or next(
        iter(query.get("token", [])), None
    )
    if secret:
        found = tokens.authenticate(secret)
        if found is None:
            return None
        check_rate(f"token:{found.pk}")
        return found.user
    user = scope.get("user")
    if user is not None and user.is_authenticated and _same_site(scope):
        check_rate(f"user:{user.pk}")
        return user
    return None


def _since(query: dict[str, list[str]]) -> int | None:
    value = (query.get("since") or [""])[0]
    return int(value) if value.isdigit() else None


class EventsConsumer(AsyncWebsocketConsumer):
    pump: asyncio.Task[None] | None = None

    async def connect(self) -> None:
        query = parse_qs(self.scope.get("query_string", b"").decode("latin1"))
        try:
            user = await database_sync_to_async(_authenticate)(self.scope, query)
        except ApiError:
            await self.close(code=CLOSE_RATE_LIMITED)
            return
        if user is None:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        await self.accept()
        presence = f"api-socket:{user.pk}:{uuid.uuid4().hex}"
        self.pump = asyncio.create_task(self._pump(user, _since(query), presence))

    async def _pump(self, user: Any, since: int | None, presence: str) -> None:
        lines = event_lines(user, since, presence)
        try:
            async for line in lines:
                await self.send(text_data=line.decode().rstrip("\n"))
        except asyncio.CancelledError:
            raise
        except Exception:
            # A stream that cannot go on must say so: the client reconnects with since=N.
            log.exception("event socket of user %s failed", user.pk)
            await self.close(code=CLOSE_SERVER_ERROR)
        finally:
            await lines.aclose()

    async def disconnect(self, code: int) -> None:
        if self.pump is not None:
            self.pump.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.pump

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        message: Any = None
        if text_data is not None and len(text_data) <= MAX_FRAME:
            with contextlib.suppress(ValueError):
                message = json.loads(text_data)
        if isinstance(message, dict) and message.get("type") == "ping":
            await self.send(text_data=json.dumps({"type": "pong"}))
            return
        await self.send(
            text_data=json.dumps(
                {
                    "type": "error",
                    "code": "malformed",
                    "message": 'Only {"type": "ping"} is understood here; act through the API.',
                }
            )
        )
