"""The lobby stream: one websocket per open lobby page.

The consumer joins the ``lobby`` group (region names, nothing personal) and the user's own group
(redirects into a new match). On every ``lobby.changed`` it renders the named regions for its
own user and pushes them as htmx out-of-band swaps. The page's heartbeat keeps the user online
and lets the lobby sweep out players whose sockets died without a close.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.utils import translation
from django.utils.html import format_html
from django.utils.translation import gettext as _

from ginsite.lib.after_commit import credentials_group, notices_group, opened_with
from ginsite.lib.dbwork import in_thread
from ginsite.lib.sockets import SiteConsumerMixin, headers
from lobby import presence, regions
from lobby.broadcast import LOBBY_GROUP, REGIONS, user_group

log = logging.getLogger(__name__)

# The shape of Django's CSRF cookie (a secret of 32 letters and digits); anything else is ignored.
CSRF_SECRET = re.compile(r"^[a-zA-Z0-9]{32}$")
# Bigger than any heartbeat, far smaller than daphne's 1 MiB frame limit.
MAX_FRAME = 4096
# A lobby page gets at most one update this often, however busy the lobby.
PUSH_EVERY_SECONDS = 1.0


def _scope_request(scope: dict[str, Any]) -> HttpRequest:
    """A stand-in request with the socket's cookies and headers, for the language and CSRF."""
    request = HttpRequest()
    request.COOKIES = dict(scope.get("cookies") or {})
    for name, value in headers(scope):
        request.META["HTTP_" + name.upper().replace("-", "_")] = value
    return request


class LobbyConsumer(SiteConsumerMixin, AsyncWebsocketConsumer):
    user: Any = None
    flusher: asyncio.Task[None] | None = None
    pushed_at = 0.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.pending: set[str] = set()

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            # Refuse the handshake: the lobby is for signed-in players only.
            await self.close(code=4401)
            return
        self.user = user
        # The user's credentials group: signing out in this browser closes the page's socket.
        self.joined = [
            LOBBY_GROUP,
            user_group(user.pk),
            credentials_group(user.pk),
            # A notice for the player wherever they are (a moderator's warning).
            notices_group(user.pk),
        ]
        self.session_key = getattr(self.scope.get("session"), "session_key", None)
        for group in self.joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()
        self.language, self.csrf_token = await in_thread(self._page_settings)()
        await in_thread(presence.seen)(user, self.channel_name)
        # Catch up: anything that changed between rendering the page and this connection
        # (or while a dropped connection was away) is in the fresh regions.
        await self._push(REGIONS)

    async def disconnect(self, code: int) -> None:
        if self.user is None:
            return
        if self.flusher is not None:
            self.flusher.cancel()
        for group in self.joined:
            await self.channel_layer.group_discard(group, self.channel_name)
        await in_thread(presence.left)(self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        message: Any = None
        if text_data is not None and len(text_data) <= MAX_FRAME:
            try:
                message = json.loads(text_data)
            except ValueError:
                message = None
        if not isinstance(message, dict) or message.get("type") != "heartbeat":
            # Answer, change nothing, keep the socket: a confused client is not an attack.
            with translation.override(self.language):
                text = _("The lobby did not understand that message.")
            await self._notice(text)
            return
        await in_thread(presence.heartbeat)(self.user, self.channel_name)

    # --- Group events -------------------------------------------------------------------------

    async def lobby_changed(self, event: dict[str, Any]) -> None:
        """Regions changed: push them, at most once every PUSH_EVERY_SECONDS however many
        players come and go (the changes in between are gathered into one push)."""
        self.pending.update(name for name in event.get("regions", ()) if name in REGIONS)
        if self.pending and (self.flusher is None or self.flusher.done()):
            self.flusher = self.start_task(self._push_pending())

    async def _push_pending(self) -> None:
        while self.pending:
            wait = self.pushed_at + PUSH_EVERY_SECONDS - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            names = [name for name in REGIONS if name in self.pending]
            self.pending.clear()
            await self._push(names)

    async def credentials_ended(self, event: dict[str, Any]) -> None:
        if opened_with(event, ("session", self.session_key)):
            await self.close(code=4401)

    async def lobby_redirect(self, event: dict[str, Any]) -> None:
        html = format_html(
            '<div id="lobby-redirect" hidden data-redirect="{}"></div>', event.get("url", "")
        )
        await self.send(text_data=str(html))

    # --- Rendering ----------------------------------------------------------------------------

    def _page_settings(self) -> tuple[str, str]:
        request = _scope_request(self.scope)
        profile_language = getattr(getattr(self.user, "profile", None), "language", "")
        language = profile_language or translation.get_language_from_request(request)
        secret = request.COOKIES.get(settings.CSRF_COOKIE_NAME, "")
        token = ""
        if CSRF_SECRET.match(secret):
            # The page's forms post over htmx with the header token anyway; the hidden field
            # keeps them valid should one be submitted as a plain form.
            request.META["CSRF_COOKIE"] = secret
            token = get_token(request)
        return language, token

    def _render(self, names: list[str] | tuple[str, ...], notice: str = "") -> str:
        with translation.override(self.language):
            return regions.render_regions(
                self.user, names, csrf_token=self.csrf_token, notice=notice, notice_level="error"
            )

    async def _push(self, names: list[str] | tuple[str, ...]) -> None:
        self.pushed_at = time.monotonic()
        html = await in_thread(self._render)(names)
        await self.send(text_data=html)

    async def _notice(self, message: str) -> None:
        html = format_html(
            '<div id="lobby-notice" class="notice error" role="status" aria-live="polite">'
            "<p>{}</p></div>",
            message,
        )
        await self.send(text_data=str(html))
