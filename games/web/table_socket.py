"""The match socket: pushes each watcher its own view of the table as out-of-band HTML, and
takes a seat's moves.

A page with its socket open sends its moves here (``{"type": "act", "move": ..., "card": ...,
"seed": ..., "version": ...}``, the fields of its forms) rather than posting them: the same door
as the form's POST (``games.web.moves``), answered after the commit with one frame,
``{"type": "answer", "status": 200, "html": ...}`` (the regions the move changed for this
seat) or a refusal's status and message with every region as it really is now. A page
without its socket posts the form as before.

The group message after a change carries only the new version (``{"type": "match.updated"}``); every
consumer then renders the regions that changed for its own seat from its own ``player_view``
(or, for a watcher, the ``spectator_view``), so no card ever travels through the group. It
renders in its reader's language (``ginsite.lib.language``), settled once at connect.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from games import events, lookups, readers
from games.live import presence, quick_messages
from games.table.regions import render_update
from games.web import moves as page_moves
from games.web import request_budget as budgets
from games.web import socket_asker
from games.web.socket_asker import TableReader
from ginsite.lib import limits
from ginsite.lib.after_commit import credentials_group, notices_group, opened_with
from ginsite.lib.dbwork import in_thread
from ginsite.lib.language import in_language, reader_language
from ginsite.lib.refusals import Refused
from ginsite.lib.sockets import SiteConsumerMixin

log = logging.getLogger(__name__)

# Frames a client may send are tiny ({"type": "ping"}); anything bigger is refused unread.
MAX_FRAME_CHARS = 2048
# Close codes (4000-4999 are the application's): not signed in, no such match to see.
CLOSE_UNAUTHENTICATED = 4401
CLOSE_NOT_FOUND = 4404


def _play(language: str, public_id: str, seat: int, fields: dict[str, str]) -> Refused | None:
    """The socket's move through the page's door: None once made, else its refusal (in the
    reader's language)."""
    with translation.override(language):
        try:
            page_moves.play(public_id, seat, fields)
        except Refused as refused:
            return refused
    return None


def _render(
    reader: TableReader,
    before: dict[str, Any] | None,
    csrf: str,
    notice: str = "",
    always: tuple[str, ...] | None = None,
) -> tuple[str, dict[str, Any], str | None] | None:
    """The HTML bringing a page that shows ``before`` to the current position (with ``notice``,
    and the regions ``always`` whether they changed or not), the view now shown, and the new
    match's URL once an accepted offer has started one; None once the match is gone (an
    expired guest's or private table)."""
    match = lookups.match_to_show(reader.match_pk)
    if match is None:
        return None
    view = readers.view_for(match, reader.seat)
    html = render_update(
        match,
        0 if reader.seat is None else reader.seat,
        before,
        view,
        notice=notice,
        always=(("notice",) if before is None else ()) if always is None else always,
        spectator=reader.seat is None,
        csrf_token=csrf,
    )
    live = view.get("live") or {}
    follow = reverse("games:table", args=[live["next"]]) if live.get("next") else None
    return html, view, follow


class MatchConsumer(SiteConsumerMixin, AsyncWebsocketConsumer):
    """/ws/games/<public_id>/: one socket of a player's (or a watcher's) table page."""

    reader: TableReader | None = None
    session_key: str | None = None
    shown: dict[str, Any] | None = None
    followed: str | None = None
    follow: str | None = None
    budget = ""  # whose count its refresh frames go on (games.web.request_budget)
    language = settings.LANGUAGE_CODE

    async def connect(self) -> None:
        user = self.scope.get("user")
        signed_in = user is not None and user.is_authenticated
        cookies = self.scope.get("cookies") or {}
        public_id = self.scope["url_route"]["kwargs"]["public_id"]
        # Without an account only a private table's guests and (if allowed) watchers get in.
        reader = await in_thread(socket_asker.reader)(public_id, user, cookies)
        if reader is None:
            await self.close(code=CLOSE_NOT_FOUND if signed_in else CLOSE_UNAUTHENTICATED)
            return
        self.reader = reader
        self.language = await in_thread(reader_language)(self.scope, user)
        self.lock = asyncio.Lock()
        self.csrf = cookies.get("csrftoken", "")
        address = (self.scope.get("client") or ["?"])[0]
        seat = f"seat:{reader.match_pk}:{reader.seat}" if reader.seat is not None else None
        self.budget = budgets.ident(user, seat or f"address:{address}")
        await self.channel_layer.group_add(reader.group, self.channel_name)
        if reader.key_group:
            # A guest's key replaced (sign-up, sign-out) closes this socket like a session.
            await self.channel_layer.group_add(reader.key_group, self.channel_name)
        if signed_in:
            # Signing out in this browser closes this page's socket (it shows a hand).
            self.session_key = getattr(self.scope.get("session"), "session_key", None)
            await self.channel_layer.group_add(credentials_group(user.pk), self.channel_name)
            # A notice for the player wherever they are (a moderator's warning).
            await self.channel_layer.group_add(notices_group(user.pk), self.channel_name)
        await self.accept()
        # (Re)connected: a full refresh, so a page back from a dropped network or a restarted
        # server shows exactly the current position.
        if not await self.push(full=True):
            return
        if reader.seat is not None:
            await in_thread(presence.seat_connected)(reader.match_pk, reader.seat)
        # A player at a table is online for the lobby too (shown "in a match").
        await self._tell(events.table_opened)
        self.beat = self.start_task(self.heartbeat())

    async def disconnect(self, code: int) -> None:
        if self.reader is None:
            return
        beat = getattr(self, "beat", None)
        if beat is not None:
            beat.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await beat
        await self.channel_layer.group_discard(self.reader.group, self.channel_name)
        if self.reader.key_group:
            await self.channel_layer.group_discard(self.reader.key_group, self.channel_name)
        user = self.scope.get("user")
        if user is not None and user.is_authenticated:
            await self.channel_layer.group_discard(credentials_group(user.pk), self.channel_name)
            await self.channel_layer.group_discard(notices_group(user.pk), self.channel_name)
        await self._tell(events.table_closed)
        if self.reader.seat is not None:
            await in_thread(presence.seat_disconnected)(self.reader.match_pk, self.reader.seat)

    async def heartbeat(self) -> None:
        """Keep this seat's presence fresh, and re-render now and then: "away for more than a
        minute" becomes true with the clock, not with any message."""
        assert self.reader is not None
        while True:
            await asyncio.sleep(presence.HEARTBEAT_SECONDS)
            try:
                if not await self.push():
                    return  # the match is gone and the socket closed: nobody to keep alive
                if self.reader.seat is not None:
                    await in_thread(presence.seat_heartbeat)(self.reader.match_pk, self.reader.seat)
                await self._tell(events.table_alive)
            except Exception:  # keep beating; a failed beat only makes the seat look away
                log.exception("heartbeat of %s failed", self.reader.group)

    async def _tell(self, signal: Any) -> None:
        """Whoever follows presence (the lobby) hears of this socket: opened, alive, closed."""
        await in_thread(presence.user_at_table)(self.scope.get("user"), self.channel_name, signal)

    async def credentials_ended(self, event: dict[str, Any]) -> None:
        if opened_with(event, ("session", self.session_key)):
            await self.close(code=CLOSE_UNAUTHENTICATED)

    async def key_ended(self, event: dict[str, Any]) -> None:
        await self.close(code=CLOSE_UNAUTHENTICATED)

    async def match_updated(self, event: dict[str, Any]) -> None:
        """Something changed (a move, presence, an offer): push what changed for this seat.
        Not for a move this page shows already: its own, answered on this socket before its
        push came (a move's every change comes with its version)."""
        shown = (self.shown or {}).get("version", -1)
        move = event.get("reason") in (events.MOVED, events.HAND_ENDED)
        if move and isinstance(event.get("version"), int) and event["version"] <= shown:
            return
        await self.push()

    async def match_quick_message(self, event: dict[str, Any]) -> None:
        """A player said a quick message: this reader's bubble, unless they muted the match."""
        assert self.reader is not None
        html = await in_thread(in_language)(
            self.language,
            quick_messages.bubble,
            self.reader.match_pk,
            self.reader.seat,
            self.scope.get("user"),
            int(event.get("seat", 0)),
            str(event.get("message", "")),
        )
        if html:
            await self.send(text_data=html)

    async def push(self, *, full: bool = False) -> bool:
        """Send what changed since the last push. False when the match no longer exists: the
        socket is then closed with 4404 rather than left beating for a table nobody can see."""
        async with self.lock:
            html = await self._update(None if full else self.shown)
            if html is None:
                return False
            if html:
                await self.send(text_data=html)
            await self._follow()
            return True

    async def _update(
        self, before: dict[str, Any] | None, notice: str = "", always: tuple[str, ...] | None = None
    ) -> str | None:
        """The HTML bringing the page from ``before`` to now, which it then shows; None (the
        socket closed) once the match is gone. Called holding ``self.lock``."""
        assert self.reader is not None
        rendered = await in_thread(in_language)(
            self.language, _render, self.reader, before, self.csrf, notice, always
        )
        if rendered is None:
            await self.close(code=CLOSE_NOT_FOUND)
            return None
        html, self.shown, follow = rendered
        self.follow = follow
        return html

    async def _follow(self) -> None:
        """Send the page on to the match an accepted offer started, once."""
        if self.follow and self.follow != self.followed:
            self.followed = self.follow
            await self.send_json({"type": "redirect", "url": self.follow})

    async def act(self, frame: dict[str, Any]) -> None:
        """A move of this socket's seat: made through the page's door, then answered with the
        regions it changed (or the refusal, with every region as it is now)."""
        assert self.reader is not None
        if self.reader.seat is None:
            await self.send_error(_("Watchers make no moves."))
            return
        # Each counts like an API request: a socket may send frames far faster than a page
        # posts forms, and every move locks its match.
        retry = await in_thread(limits.over_budget)(self.budget)
        if retry is not None:
            await self.send_json(
                {"type": "answer", "status": 429, "message": budgets.message(retry)}
            )
            return
        fields = page_moves.socket_fields(frame)
        refused = await in_thread(_play)(
            self.language, self.reader.public_id, self.reader.seat, fields
        )
        async with self.lock:
            if refused is None:
                # As the POST answers a move: the regions it changed, the notice cleared.
                answer: dict[str, Any] = {"type": "answer", "status": 200}
                html = await self._update(self.shown, always=("notice",))
            else:
                answer = {"type": "answer", "status": refused.status, "message": refused.message}
                html = await self._update(None, notice=refused.message)
            if html is None:
                return
            await self.send_json({**answer, "html": html})
            await self._follow()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Clients may ping, ask for a full refresh or make a move; anything else gets an
        error frame (in the reader's language) and the socket keeps serving."""
        with translation.override(self.language):
            await self._receive(text_data)

    async def _receive(self, text_data: str | None) -> None:
        if text_data is None or len(text_data) > MAX_FRAME_CHARS:
            await self.send_error(_("Frames must be short JSON text."))
            return
        try:
            message = json.loads(text_data)
        except ValueError:
            await self.send_error(_("That frame is not JSON."))
            return
        kind = message.get("type") if isinstance(message, dict) else None
        if kind == "ping":
            if self.reader is not None and self.reader.seat is not None:
                await in_thread(presence.seat_heartbeat)(self.reader.match_pk, self.reader.seat)
            await self.send_json({"type": "pong"})
        elif kind == "refresh":
            # A full render on request, on the API's budget: over it, an error frame and no
            # render; the socket stays open (its pushes are the server's, never counted).
            retry = await in_thread(limits.over_budget)(self.budget)
            if retry is not None:
                await self.send_error(budgets.message(retry))
                return
            await self.push(full=True)
        elif kind == "act":
            await self.act(message)
        else:
            await self.send_error(
                _('Unknown message: send {"type": "act", ...} with a move, or a ping.')
            )

    async def send_json(self, content: dict[str, Any]) -> None:
        await self.send(text_data=json.dumps(content))

    async def send_error(self, message: str) -> None:
        await self.send_json({"type": "error", "message": message})
