"""An arena page's socket: one per open page, signed in or not.

It joins the arena's group (``push``: "the arena changed", nothing else) and, for a signed-in
player, their lobby group (where the pairing sends them to their new match). On a change it
renders the regions for its own reader, in their language, at most once every
PUSH_EVERY_SECONDS however many matches end meanwhile: the standings of a busy arena reach
each viewer as one message a second at most, never one per change. It sends only what changed
since its last push (``patch``: the regions and rows that differ, numbered), and everything
again when the page asks (``{"resync": true}``: it missed a push), at the same pace.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer
from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.html import format_html

from ginsite.lib.after_commit import credentials_group, opened_with
from ginsite.lib.dbwork import in_thread
from ginsite.lib.sockets import SiteConsumerMixin
from lobby.broadcast import user_group
from lobby.consumers import _scope_request

from . import regions, service
from .models import Arena
from .push import LIST_GROUP, group_name

PUSH_EVERY_SECONDS = 1.0
# A shared render is kept this long (a stamp names one change: older ones are never asked for).
SHARED_RENDER_SECONDS = 30
# What a page shows: its regions and its lists' rows (``regions.snapshot``).
Snapshot = dict[str, Any]  # regions.snapshot


class ArenaConsumer(SiteConsumerMixin, AsyncWebsocketConsumer):
    arena: Arena | None = None
    flusher: asyncio.Task[None] | None = None
    pushed_at = 0.0
    pending = False
    stamp = ""
    sent: Snapshot | None = None  # what the page shows: the last push's snapshot
    version = 0

    async def connect(self) -> None:
        public_id = str(self.scope["url_route"]["kwargs"].get("public_id", ""))[:24]
        self.arena = await in_thread(Arena.objects.filter(public_id=public_id).first)()
        if self.arena is None:
            await self.close(code=4404)
            return
        self.user = self.scope.get("user")
        self.joined = [group_name(self.arena.public_id)]
        if self.user is not None and self.user.is_authenticated:
            self.joined += [user_group(self.user.pk), credentials_group(self.user.pk)]
        for group in self.joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()
        self.language = await in_thread(self._language)()
        await self._push()  # anything that changed since the page was rendered

    async def disconnect(self, code: int) -> None:
        if self.arena is None:
            return
        if self.flusher is not None:
            self.flusher.cancel()
        for group in self.joined:
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """A page that missed a push asks for all of it again (``{"resync": true}``), sent at
        the pushes' pace; anything else is ignored."""
        try:
            asked = json.loads(text_data or "")
        except ValueError:
            return
        if isinstance(asked, dict) and asked.get("resync") is True:
            self.sent = None
            self._schedule()

    async def arena_changed(self, event: dict[str, Any]) -> None:
        self.stamp = str(event.get("stamp", ""))
        self._schedule()

    def _schedule(self) -> None:
        self.pending = True
        if self.flusher is None or self.flusher.done():
            self.flusher = self.start_task(self._push_pending())

    async def _push_pending(self) -> None:
        while self.pending:
            wait = self.pushed_at + PUSH_EVERY_SECONDS - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            self.pending = False
            await self._push()

    async def lobby_changed(self, event: dict[str, Any]) -> None:
        """The lobby's regions: not on this page."""

    async def lobby_redirect(self, event: dict[str, Any]) -> None:
        html = format_html(
            '<div id="arena-redirect" hidden data-redirect="{}"></div>', event.get("url", "")
        )
        await self.send(text_data=str(html))

    async def credentials_ended(self, event: dict[str, Any]) -> None:
        session = getattr(self.scope.get("session"), "session_key", None)
        if opened_with(event, ("session", session)):
            await self.close(code=4401)

    def _language(self) -> str:
        profile = getattr(self.user, "profile", None) if self.user is not None else None
        chosen = getattr(profile, "language", "") if profile is not None else ""
        return chosen or translation.get_language_from_request(_scope_request(self.scope))

    def _snapshot(self) -> Snapshot:
        assert self.arena is not None
        signed_in = bool(self.user is not None and self.user.is_authenticated)
        if self.stamp and not (signed_in and service.place_of(self.user, self.arena)):
            # The same regions for every reader without a place, in one language: rendered
            # once per change (its stamp) and language, whichever page gets there first.
            key = f"arena:snap:{self.arena.pk}:{self.stamp}:{self.language}:{int(signed_in)}"
            snap = cache.get(key)
            if snap is None:
                snap = self._snapshot_now()
                cache.set(key, snap, timeout=SHARED_RENDER_SECONDS)
            return dict(snap)
        return self._snapshot_now()

    def _snapshot_now(self) -> Snapshot:
        assert self.arena is not None
        self.arena.refresh_from_db()
        with translation.override(self.language):
            return regions.snapshot(self.arena, self.user)

    async def _push(self) -> None:
        self.pushed_at = time.monotonic()
        signed_in = bool(self.user is not None and self.user.is_authenticated)
        if self.stamp and not signed_in:
            # The same regions as every other anonymous page in this language: rendered once
            # in this process, however many of its pages push for this change at once.
            assert self.arena is not None
            key = f"{self.arena.pk}:{self.stamp}:{self.language}"
            snap = await _rendered_once(key, in_thread(self._snapshot))
        else:
            snap = await in_thread(self._snapshot)()
        message = changes(self.sent, snap, self.version + 1)
        if message is None:
            return
        self.version += 1
        self.sent = snap
        await self.send(text_data=json.dumps(message, ensure_ascii=False, separators=(",", ":")))


# The shared renders this process is making now, by arena, change and language: a page that
# pushes while one is under way waits for it instead of taking a thread to render it again (a
# busy arena's change reached 20 pages at once, and they rendered it five at a time, every
# thread of the socket's pool held).
_rendering: dict[str, asyncio.Future[Snapshot]] = {}


async def _rendered_once(key: str, render: Callable[[], Awaitable[Snapshot]]) -> Snapshot:
    under_way = _rendering.get(key)
    if under_way is None:
        under_way = asyncio.ensure_future(render())
        _rendering[key] = under_way
        under_way.add_done_callback(lambda _done: _rendering.pop(key, None))
    # Shielded: a page that closes while it waits does not cancel the others' render.
    return dict(await asyncio.shield(under_way))


class ArenaListConsumer(SiteConsumerMixin, AsyncWebsocketConsumer):
    """The home page's list of the site's arenas (``/ws/arenas/``), signed in or not: when an
    arena is made, starts or is over (``push.list_changed``) it sends the list again, in the
    reader's language, at most once every PUSH_EVERY_SECONDS. The lobby's pages hear the same
    change through their own socket (the "arenas" region)."""

    flusher: asyncio.Task[None] | None = None
    pushed_at = 0.0

    async def connect(self) -> None:
        self.user = self.scope.get("user")
        await self.channel_layer.group_add(LIST_GROUP, self.channel_name)
        await self.accept()
        self.language = await in_thread(self._language)()

    async def disconnect(self, code: int) -> None:
        if self.flusher is not None:
            self.flusher.cancel()
        await self.channel_layer.group_discard(LIST_GROUP, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """The page sends nothing: ignored."""

    async def arenas_changed(self, event: dict[str, Any]) -> None:
        if self.flusher is None or self.flusher.done():
            self.flusher = self.start_task(self._push())

    async def _push(self) -> None:
        wait = self.pushed_at + PUSH_EVERY_SECONDS - time.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)
        self.pushed_at = time.monotonic()
        await self.send(text_data=await in_thread(self._render)())

    def _language(self) -> str:
        profile = getattr(self.user, "profile", None) if self.user is not None else None
        chosen = getattr(profile, "language", "") if profile is not None else ""
        return chosen or translation.get_language_from_request(_scope_request(self.scope))

    def _render(self) -> str:
        with translation.override(self.language):
            return render_to_string("arena/_list_push.html", {})


# --- The change since the last push ---------------------------------------------------------

# What an arena page's socket sends: the change since its last push, not the whole page.
#
# A push is one JSON message ``{"type": "arena", "v", "full", "regions", "rows"}``. ``v`` counts
# the socket's pushes from 1; ``full`` (the first push, and the answer to a page that asks for
# it) carries every region and every row. Otherwise ``regions`` holds only the regions whose HTML
# changed (each without its rows) and ``rows`` each list's change: ``set`` the rows, by key, that
# are new or changed, and ``order`` the keys in their new order when the order changed (a row no
# longer in it is gone). A page that sees a ``v`` it did not expect (it missed a push, or its DOM
# was swapped by an answer of its own) asks for a full push (``{"resync": true}``, above).
#
# A match's end changes two standings rows and one pairing; the rest of a 100-row table is not
# sent again (docs/performance.md, "Arenas": from 27 kB to about 2 kB a push).


def changes(before: Snapshot | None, now: Snapshot, version: int) -> dict[str, Any] | None:
    """The message that brings a page showing ``before`` (None: nothing yet) to ``now``, as
    push ``version``; None when nothing changed."""
    full = before is None
    then: Snapshot = before or {"regions": {}, "rows": {}}
    regions = {
        element: html
        for element, html in now["regions"].items()
        if full or then["regions"].get(element) != html
    }
    rows: dict[str, Any] = {}
    for name, items in now["rows"].items():
        old = then["rows"].get(name, [])
        known = dict(map(tuple, old))
        change: dict[str, Any] = {}
        changed = {key: html for key, html in items if known.get(key) != html}
        if changed:
            change["set"] = changed
        order = [key for key, _html in items]
        if full or order != [key for key, _html in old]:
            change["order"] = order
        if change:
            rows[name] = change
    if not (full or regions or rows):
        return None
    return {"type": "arena", "v": version, "full": full, "regions": regions, "rows": rows}
