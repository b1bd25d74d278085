"""The friends region is pushed like the lobby's others: a friend coming online shows on an
open lobby page, and a follow shows on the follower's own pages, without a page load."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from django.contrib.auth.models import User

from lobby import presence, services
from lobby.routing import websocket_urlpatterns
from tests.sockets import Socket

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def _connect(user: User) -> Socket:
    communicator = Socket(URLRouter(websocket_urlpatterns), "/ws/lobby/")
    communicator.scope["user"] = user
    connected, _code = await communicator.connect()
    assert connected
    first = await communicator.receive_from()
    assert 'id="lobby-friends"' in first
    return communicator


async def _receive_until(communicator: Socket, needle: str) -> str:
    while True:
        frame = await communicator.receive_from()
        if needle in frame:
            return frame


async def test_a_friend_coming_online_is_pushed(alice: User, bob: User) -> None:
    await database_sync_to_async(services.follow)(alice, bob)
    page = await _connect(alice)
    await database_sync_to_async(presence.seen)(bob, "bob-page")
    # Away at first (the page's own arrival pushes the region too), then online, with the
    # one-click challenge.
    frame = await _receive_until(page, 'name="to" value="bob"')
    region = frame[frame.index('id="lobby-friends"') :].split("</section>")[0]
    assert 'hx-swap-oob="true"' in region
    assert 'data-friend="bob"' in region and 'name="to" value="bob"' in region
    await page.disconnect()


async def test_a_follow_is_pushed_to_the_followers_pages(alice: User, bob: User) -> None:
    await database_sync_to_async(presence.seen)(bob, "bob-page")
    page = await _connect(alice)
    await database_sync_to_async(services.follow)(alice, bob)
    frame = await _receive_until(page, 'data-friend="bob"')
    assert 'id="lobby-friends"' in frame
    await page.disconnect()
