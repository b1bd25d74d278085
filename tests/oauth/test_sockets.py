"""An app's token on the event socket: it needs ``read`` to open it, ``play`` to move on it,
and its socket closes (4401) when the player revokes the app, as a personal token's does."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from oauth2_provider.models import Application

from ginsite.asgi import application
from lobby.oauth import access
from tests.api.streams import closed_code
from tests.games.live_helpers import lobby_match
from tests.oauth.conftest import issue, register
from tests.sockets import Socket

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def _open(secret: str) -> Socket:
    comm = Socket(application, f"/ws/events/?token={secret}")
    assert (await comm.connect())[0]
    return comm


async def test_it_closes_a_socket_when_the_player_revokes_the_app(alice):
    client_id = await sync_to_async(register)()
    _row, secret = await sync_to_async(issue)(alice, client_id, "read")
    comm = await _open(secret)
    try:
        assert (await comm.receive_json_from())["type"] == "hello"
        app = await Application.objects.aget(client_id=client_id)
        assert await sync_to_async(access.revoke)(alice, app.pk)
        assert await closed_code(comm) == 4401
    finally:
        await comm.disconnect()


async def test_it_needs_read_to_open_the_socket(alice):
    client_id = await sync_to_async(register)()
    _row, secret = await sync_to_async(issue)(alice, client_id, "play")
    comm = await _open(secret)
    try:
        assert await closed_code(comm) == 4401
    finally:
        await comm.disconnect()


async def test_it_refuses_a_move_without_play(alice, bob):
    client_id = await sync_to_async(register)()
    _row, secret = await sync_to_async(issue)(alice, client_id, "read")
    match = await sync_to_async(lobby_match)(alice, bob)
    comm = await _open(secret)
    try:
        assert (await comm.receive_json_from())["type"] == "hello"
        move = {"version": 0, "action": {"type": "take_upcard"}}
        await comm.send_json_to({"type": "act", "id": 1, "match": match.public_id, **move})
        frame = await comm.receive_json_from()
        while frame["type"] != "answer":
            frame = await comm.receive_json_from()
        assert frame["status"] == 403 and frame["body"]["code"] == "insufficient_scope"
    finally:
        await comm.disconnect()


async def test_a_refresh_closes_the_socket_of_the_token_it_replaces(alice):
    from django.test import Client

    from tests.oauth.conftest import grant

    client_id = await sync_to_async(register)()

    def sign_in() -> dict:  # type: ignore[type-arg]
        browser = Client()
        browser.force_login(alice)
        return grant(browser, client_id, "read")

    tokens = await sync_to_async(sign_in)()
    comm = await _open(tokens["access_token"])
    try:
        assert (await comm.receive_json_from())["type"] == "hello"
        form = {
            "grant_type": "refresh_token",
            "refresh_token": tokens["refresh_token"],
            "client_id": client_id,
        }
        renewed = await sync_to_async(Client().post)("/oauth/token/", form)
        assert renewed.status_code == 200
        assert await closed_code(comm) == 4401
    finally:
        await comm.disconnect()
