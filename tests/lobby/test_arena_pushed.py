"""The arena page's socket: a match's end reaches every viewer as one push of the regions, in
the viewer's own language, the standings moved; nobody's page gets a message per change."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from django.contrib.auth.models import AnonymousUser, User

from lobby.arena import service
from lobby.routing import websocket_urlpatterns
from tests.lobby.arena_helpers import arena, win
from tests.sockets import Socket

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def _page(public_id: str, user: object, language: str = "en") -> Socket:
    socket = Socket(URLRouter(websocket_urlpatterns), f"/ws/arena/{public_id}/")
    socket.scope["user"] = user
    socket.scope["headers"] = [(b"accept-language", language.encode())]
    connected, _code = await socket.connect()
    assert connected
    await socket.receive_from()  # the catch-up push
    return socket


def _setup(alice: User, bob: User) -> str:
    made = arena()
    service.join(alice, made)
    service.join(bob, made)
    return made.public_id


async def test_a_match_end_is_one_push_per_viewer_in_their_language(
    alice: User, bob: User, carol: User
) -> None:
    public_id = await database_sync_to_async(_setup)(alice, bob)
    watcher = await _page(public_id, AnonymousUser(), "de")
    player = await _page(public_id, carol)
    # alice wins: the points, the streak, the next pairing of alice and bob: one change each.
    await database_sync_to_async(win)(alice)
    pushed = await watcher.receive_from()
    assert 'id="arena-standings"' in pushed and 'id="arena-pairings"' in pushed
    assert "Tabelle" in pushed  # German, for the German reader
    assert "<td data-points>2</td>" in pushed
    mine = await player.receive_from()
    assert "Standings" in mine and "<td data-points>2</td>" in mine
    assert await watcher.receive_nothing(timeout=1.5)
    await watcher.disconnect()
    await player.disconnect()


async def test_an_unknown_arena_closes_the_socket() -> None:
    socket = Socket(URLRouter(websocket_urlpatterns), "/ws/arena/nope/")
    socket.scope["user"] = AnonymousUser()
    connected, code = await socket.connect()
    assert not connected
    assert code == 4404
