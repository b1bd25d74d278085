"""The lists of the site's arenas are live: when an arena is made, starts or is over, every
open home page (its own socket, ``/ws/arenas/``) and every lobby page (the lobby's socket, its
"arenas" region) gets the list again, in the reader's language, with its countdowns; a private
arena is never listed, so its start tells no list."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from django.contrib.auth.models import AnonymousUser, User
from django.utils import timezone

from lobby.arena import schedule, service
from lobby.arena.models import Arena
from lobby.routing import websocket_urlpatterns
from tests.lobby.arena_helpers import arena
from tests.sockets import Socket

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def _home(language: str) -> Socket:
    socket = Socket(URLRouter(websocket_urlpatterns), "/ws/arenas/")
    socket.scope["user"] = AnonymousUser()
    socket.scope["headers"] = [(b"accept-language", language.encode())]
    connected, _code = await socket.connect()
    assert connected
    return socket


async def _lobby(user: User) -> Socket:
    socket = Socket(URLRouter(websocket_urlpatterns), "/ws/lobby/")
    socket.scope["user"] = user
    connected, _code = await socket.connect()
    assert connected
    await socket.receive_from()  # the catch-up push
    return socket


async def _list_of(socket: Socket) -> str:
    """The next pushed list of arenas (a lobby frame may hold other regions first)."""
    while True:
        frame = await socket.receive_from()
        if 'id="arena-list"' in frame:
            return frame.split('id="arena-list"')[1].split("</section>")[0]


def _start_soon() -> Arena:
    made = arena(starts_in=10, name="Soon")
    start = timezone.now() - timedelta(seconds=1)
    Arena.objects.filter(pk=made.pk).update(starts_at=start, ends_at=start + timedelta(minutes=30))
    return made


async def test_an_arena_that_starts_and_ends_updates_the_home_page_and_the_lobby(
    alice: User,
) -> None:
    home = await _home("de")
    lobby = await _lobby(alice)
    await database_sync_to_async(_start_soon)()
    await database_sync_to_async(service.started_now)()
    pushed = await _list_of(home)
    assert 'hx-swap-oob="true"' in pushed
    assert "Standard bis 100, 30-Minuten-Arena" in pushed and "Läuft:" in pushed
    assert "data-countdown" in pushed
    in_lobby = await _list_of(lobby)
    assert "Standard to 100, 30-minute arena" in in_lobby and "Running:" in in_lobby

    def end() -> None:
        later = timezone.now() + timedelta(minutes=31)
        for made in Arena.objects.all():
            service.finish(made, later)

    await database_sync_to_async(end)()
    assert "30-Minuten-Arena" not in await _list_of(home)
    assert "30-minute arena" not in await _list_of(lobby)
    await home.disconnect()
    await lobby.disconnect()


async def test_the_schedule_made_tells_the_lists_and_a_private_arena_tells_none() -> None:
    home = await _home("en")

    def private_starts() -> None:
        made = arena(kind=Arena.Kind.PRIVATE, name="Club", rated=False)
        Arena.objects.filter(pk=made.pk).update(starts_at=timezone.now() - timedelta(seconds=1))
        service.started_now()

    await database_sync_to_async(private_starts)()
    assert await home.receive_nothing(timeout=1.5)
    made = await database_sync_to_async(schedule.make_scheduled)(timezone.now())
    assert made > 0
    assert "arena" in await _list_of(home)
    await home.disconnect()
