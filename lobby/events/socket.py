"""/ws/events/: a player's event stream over a websocket (``lobby.events.stream``'s lines, as the
NDJSON response sends them).

Sign in with a personal token (``Authorization: Bearer`` header, or ``?token=`` for clients
that cannot set headers, such as a browser's WebSocket) or with the session. The session is a
cookie the browser sends by itself, so a session socket must come from one of the site's own
origins; a token is never sent by itself, so a token socket may come from anywhere (a phone,
a bot), with or without an Origin header.

Frames are the same JSON objects as the NDJSON lines: ``hello``, events, ``keepalive``.
Clients may send ``{"type": "ping"}`` (answered with ``pong``) and moves, ``{"type": "act",
...}``, each answered by an ``answer`` frame as ``POST /matches/{id}/actions`` would answer it
(``lobby.events.socket_commands``); anything else gets an ``error`` frame and changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import uuid
from functools import partial
from typing import Any
from urllib.parse import parse_qs

from channels.generic.websocket import AsyncWebsocketConsumer

from ginsite.lib import numbers, origins
from ginsite.lib.apikit import ApiError, check_rate
from ginsite.lib.dbwork import in_thread
from ginsite.lib.language import in_language, reader_language
from ginsite.lib.sockets import SiteConsumerMixin, header
from lobby.accounts import tokens
from lobby.events import log as event_log
from lobby.events import socket_commands
from lobby.events.stream import event_lines
from lobby.oauth import scopes

CLOSE_UNAUTHENTICATED = 4401
CLOSE_RATE_LIMITED = 4429
# ``since`` past the player's last event (an error frame says so first).
CLOSE_SINCE_AHEAD = 4422
# The stream failed on the server: reconnect with since=N. (Not 1011: daphne's websocket
# library may send only 1000 and 3000-4999, and refused 1011, leaving the socket open and
# silent.)
CLOSE_STREAM_FAILED = 4500
# A malformed query (a ``since`` that is no whole number), after an ``error`` frame.
CLOSE_MALFORMED = 4400
MAX_FRAME = 1024

log = logging.getLogger(__name__)


def _same_site(scope: dict[str, Any]) -> bool:
    """A session socket must come from one of the site's own origins: scheme, host and port."""
    return origins.allowed(scope)


def _authenticate(scope: dict[str, Any], query: dict[str, list[str]]) -> Any:
    """The player this socket is for, what they signed in with (``("token", id)``,
    ``("oauth", id)`` or ``("session", key)``), the language their answers are in and the scopes
    of an app's token (None: every scope), or None. An app's token without ``read`` is no
    sign-in here. Raises ApiError when rate limited."""
    secret = tokens.bearer(header(scope, "authorization")) or next(
        iter(query.get("token", [])), None
    )
    if secret:
        found = tokens.authenticate_from((scope.get("client") or [None])[0], secret)
        if found is None:
            return None
        check_rate(found.user_id)
        granted = tokens.scopes_of(found)
        if granted is not None and scopes.READ not in granted:
            return None
        credential = tokens.credential_of(found)
        return found.user, credential, reader_language(scope, found.user), granted
    user = scope.get("user")
    if user is not None and user.is_authenticated and _same_site(scope):
        check_rate(user.pk)
        credential = ("session", getattr(scope.get("session"), "session_key", None))
        return user, credential, reader_language(scope, user), None
    return None


class BadSince(Exception):
    """A ``since`` that is not a whole number in ASCII digits."""


def _since(query: dict[str, list[str]]) -> int | None:
    """The query's ``since``: None when there is none (or it is empty), else its number;
    ``BadSince`` for anything else, "①" and "-1" alike."""
    value = (query.get("since") or [""])[0]
    if value == "":
        return None
    since = numbers.parse(value)
    if since is None:
        raise BadSince(value)
    return since


class EventsConsumer(SiteConsumerMixin, AsyncWebsocketConsumer):
    pump: asyncio.Task[None] | None = None
    credential: tuple[str, Any] = ("token", None)
    user: Any = None
    language = "en"
    scopes: frozenset[str] | None = None

    async def connect(self) -> None:
        query = parse_qs(self.scope.get("query_string", b"").decode("latin1"))
        try:
            found = await in_thread(_authenticate)(self.scope, query)
        except ApiError:
            await self._refuse(CLOSE_RATE_LIMITED)
            return
        if found is None:
            await self._refuse(CLOSE_UNAUTHENTICATED)
            return
        user, self.credential, self.language, self.scopes = found
        await self.accept()
        try:
            since = _since(query)
        except BadSince:
            await self._error("malformed", '"since" is a whole number in the digits 0-9.')
            await self.close(code=CLOSE_MALFORMED)
            return
        try:
            await in_thread(event_log.check_since)(user.pk, since)
        except event_log.SinceAhead as refused:
            await self._error(refused.code, refused.message)
            await self.close(code=CLOSE_SINCE_AHEAD)
            return
        presence = f"api-socket:{user.pk}:{uuid.uuid4().hex}"
        with_presence = (query.get("presence") or ["1"])[0].lower() not in ("0", "false")
        self.pump = self.start_task(self._pump(user, since, presence, with_presence))
        self.user = user

    async def _refuse(self, code: int) -> None:
        """Accept, then close with ``code``: a handshake refused outright reaches a client as a
        bare HTTP 403, and the documented codes (4401, 4429) would never arrive."""
        await self.accept()
        await self.close(code=code)

    async def _pump(self, user: Any, since: int | None, presence: str, with_presence: bool) -> None:
        lines = event_lines(
            user, since, presence, credential=self.credential, with_presence=with_presence
        )
        try:
            async for line in lines:
                await self.send(text_data=line.decode().rstrip("\n"))
            # The stream ends only when the token or session it was opened with ended.
            await self.close(code=CLOSE_UNAUTHENTICATED)
        except asyncio.CancelledError:
            raise
        except Exception:
            # A stream that cannot go on must say so: the client reconnects with since=N.
            log.exception("event socket of user %s failed", user.pk)
            await self.close(code=CLOSE_STREAM_FAILED)
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
        kind = message.get("type") if isinstance(message, dict) else None
        if kind == "ping":
            await self.send(text_data=json.dumps({"type": "pong"}))
        elif kind == "act" and self.user is not None:
            # One command at a time, in the order they came: the next frame is read when this
            # one's answer is sent (the events go on meanwhile, from the pump).
            act = in_thread(in_language)
            command = partial(socket_commands.act, scopes=self.scopes)
            answer = await act(self.language, command, self.user, message)
            await self.send(text_data=answer)
        else:
            await self._error(
                "malformed",
                'Send {"type": "ping"} or a move, {"type": "act", ...} (docs/api.md), as one '
                f"JSON object of at most {MAX_FRAME} bytes.",
            )

    async def _error(self, code: str, message: str) -> None:
        await self.send(text_data=json.dumps({"type": "error", "code": code, "message": message}))
