"""The match socket: pushes each watcher its own view of the table as out-of-band HTML.

Moves never come in here; they are htmx POSTs through the views and ``services``. The group
message after a change carries only the new version (``{"type": "match.updated"}``); every
consumer then renders the regions that changed for its own seat from its own ``player_view``
(or, for a watcher, the ``spectator_view``), so no card ever travels through the group.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from dataclasses import dataclass
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.urls import reverse
from django.utils.translation import gettext as _

from games import private, services
from games.models import Match
from games.regions import presented_view, render_update, spectator_as_view
from lobby import services as lobby_services

log = logging.getLogger(__name__)

# Frames a client may send are tiny ({"type": "ping"}); anything bigger is refused unread.
MAX_FRAME_CHARS = 2048
# Close codes (4000-4999 are the application's): not signed in, no such match to see.
CLOSE_UNAUTHENTICATED = 4401
CLOSE_NOT_FOUND = 4404


@dataclass
class Seen:
    """Who this socket serves, resolved once at connect."""

    match_pk: int
    group: str
    seat: int | None  # None: a watcher


def _find(public_id: str, user: Any, cookies: dict[str, str]) -> Seen | None:
    match = (
        Match.objects.filter(public_id=public_id)
        .select_related("table")
        .prefetch_related("seats__user")
        .first()
    )
    if match is None:
        return None
    # A guest at a private table is known by the seat-key cookie the handshake carries.
    seat = private.seat_for(match, user, cookies)
    if seat is None and not services.can_watch(match, user):
        return None
    return Seen(match.pk, match.group_name, seat)


def _render(
    seen: Seen, before: dict[str, Any] | None, csrf: str
) -> tuple[str, dict[str, Any], str | None]:
    """The HTML bringing a page that shows ``before`` to the current position, the view now
    shown, and the new match's URL once an accepted offer has started one."""
    match = Match.objects.prefetch_related("seats__user").get(pk=seen.match_pk)
    if seen.seat is None:
        view = spectator_as_view(services.spectator_view(match))
        view["live"] = services.live_state(match, None)
    else:
        view = services.table_view(match, seen.seat)
    html = render_update(
        match,
        0 if seen.seat is None else seen.seat,
        before,
        view,
        always=("notice",) if before is None else (),
        spectator=seen.seat is None,
        csrf_token=csrf,
    )
    live = view.get("live") or {}
    follow = reverse("games:table", args=[live["next"]]) if live.get("next") else None
    return html, presented_view(match, view), follow


class MatchConsumer(AsyncWebsocketConsumer):
    """/ws/games/<public_id>/: one socket of a player's (or a watcher's) table page."""

    seen: Seen | None = None
    shown: dict[str, Any] | None = None
    followed: str | None = None

    async def connect(self) -> None:
        user = self.scope.get("user")
        signed_in = user is not None and user.is_authenticated
        cookies = self.scope.get("cookies") or {}
        public_id = self.scope["url_route"]["kwargs"]["public_id"]
        # Without an account only a private table's guests and (if allowed) watchers get in.
        seen = await database_sync_to_async(_find)(public_id, user, cookies)
        if seen is None:
            await self.close(code=CLOSE_NOT_FOUND if signed_in else CLOSE_UNAUTHENTICATED)
            return
        self.seen = seen
        self.lock = asyncio.Lock()
        self.csrf = cookies.get("csrftoken", "")
        await self.channel_layer.group_add(seen.group, self.channel_name)
        await self.accept()
        # (Re)connected: a full refresh, so a page back from a dropped network or a restarted
        # server shows exactly the current position.
        await self.push(full=True)
        if seen.seat is not None:
            await database_sync_to_async(services.seat_connected)(seen.match_pk, seen.seat)
        if signed_in:
            # A player at a table is online for the lobby too (shown "in a match").
            await database_sync_to_async(lobby_services.seen)(user, self.channel_name)
        self.beat = asyncio.create_task(self.heartbeat())

    async def disconnect(self, code: int) -> None:
        if self.seen is None:
            return
        beat = getattr(self, "beat", None)
        if beat is not None:
            beat.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await beat
        await self.channel_layer.group_discard(self.seen.group, self.channel_name)
        if self._signed_in():
            await database_sync_to_async(lobby_services.left)(self.channel_name)
        if self.seen.seat is not None:
            await database_sync_to_async(services.seat_disconnected)(
                self.seen.match_pk, self.seen.seat
            )

    async def heartbeat(self) -> None:
        """Keep this seat's presence fresh, and re-render now and then: "away for more than a
        minute" becomes true with the clock, not with any message."""
        assert self.seen is not None
        while True:
            await asyncio.sleep(services.HEARTBEAT_SECONDS)
            try:
                if self.seen.seat is not None:
                    await database_sync_to_async(services.seat_heartbeat)(
                        self.seen.match_pk, self.seen.seat
                    )
                if self._signed_in():
                    await database_sync_to_async(lobby_services.heartbeat)(
                        self.scope["user"], self.channel_name
                    )
                await self.push()
            except Exception:  # keep beating; a failed beat only makes the seat look away
                log.exception("heartbeat of %s failed", self.seen.group)

    def _signed_in(self) -> bool:
        user = self.scope.get("user")
        return user is not None and user.is_authenticated

    async def match_updated(self, event: dict[str, Any]) -> None:
        """Something changed (a move, presence, an offer): push what changed for this seat."""
        await self.push()

    async def push(self, *, full: bool = False) -> None:
        assert self.seen is not None
        async with self.lock:
            before = None if full else self.shown
            html, shown, follow = await database_sync_to_async(_render)(
                self.seen, before, self.csrf
            )
            self.shown = shown
            if html:
                await self.send(text_data=html)
            if follow and follow != self.followed:
                self.followed = follow
                await self.send_json({"type": "redirect", "url": follow})

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Clients may only ping or ask for a full refresh; anything else gets an error frame
        and the socket keeps serving."""
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
            if self.seen is not None and self.seen.seat is not None:
                await database_sync_to_async(services.seat_heartbeat)(
                    self.seen.match_pk, self.seen.seat
                )
            await self.send_json({"type": "pong"})
        elif kind == "refresh":
            await self.push(full=True)
        else:
            await self.send_error(
                _("Unknown message: moves are made on the page, not over this socket.")
            )

    async def send_json(self, content: dict[str, Any]) -> None:
        await self.send(text_data=json.dumps(content))

    async def send_error(self, message: str) -> None:
        await self.send_json({"type": "error", "message": message})
