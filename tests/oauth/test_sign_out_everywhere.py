"""Signing out everywhere else signs the player's apps out too: their access and refresh tokens
end, and the sockets and streams opened with them close with 4401, as a revoked personal
token's do. The player's personal tokens (their bots) keep working, as Settings says."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from ginsite.asgi import application
from lobby.accounts import tokens
from tests.api.streams import NdjsonStream, closed_code, closes_within
from tests.games.live_helpers import signed_in
from tests.oauth.conftest import allow, exchange, grant, register
from tests.sockets import Socket

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def _open(secret: str) -> Socket:
    comm = Socket(application, f"/ws/events/?token={secret}")
    assert (await comm.connect())[0]
    assert (await comm.receive_json_from())["type"] == "hello"
    return comm


async def _ended(stream: NdjsonStream) -> bool:
    try:
        while True:
            await stream.line(timeout=5)
    except EOFError:
        return True


async def test_it_signs_the_apps_out_and_keeps_the_personal_tokens(alice, password):
    phone_app = await sync_to_async(register)("Pocket Gin")
    tablet_app = await sync_to_async(register)("Gin for tablets", "http://127.0.0.1/back")

    def sign_in(client_id: str, redirect: str) -> dict:  # type: ignore[type-arg]
        browser = Client()
        browser.force_login(alice)
        return grant(browser, client_id, "read play", redirect)

    phone = await sync_to_async(sign_in)(phone_app, "http://127.0.0.1/callback")
    tablet = await sync_to_async(sign_in)(tablet_app, "http://127.0.0.1/back")
    _bot, bot_secret = await sync_to_async(tokens.create)(alice, "bot")
    phone_socket = await _open(phone["access_token"])
    bot_socket = await _open(bot_secret)
    bearer = f"Bearer {tablet['access_token']}".encode()
    tablet_stream = NdjsonStream("/api/v1/events/stream", "", [(b"authorization", bearer)])
    await tablet_stream.open()
    try:
        assert (await tablet_stream.line())["type"] == "hello"
        here = await sync_to_async(signed_in)(alice)
        done = await sync_to_async(here.post)(
            "/settings/sign-out-elsewhere", {"password": password}
        )
        assert done.status_code == 302
        assert await closed_code(phone_socket) == 4401
        assert await _ended(tablet_stream)
        # Neither app reads as alice any more, nor gets a new token with its refresh token.
        for app_tokens, client_id in ((phone, phone_app), (tablet, tablet_app)):
            me = await sync_to_async(Client().get)(
                "/api/v1/me", headers={"Authorization": f"Bearer {app_tokens['access_token']}"}
            )
            assert me.status_code == 401
            renewed = await sync_to_async(Client().post)(
                "/oauth/token/",
                {
                    "grant_type": "refresh_token",
                    "refresh_token": app_tokens["refresh_token"],
                    "client_id": client_id,
                },
            )
            assert renewed.status_code == 400 and renewed.json()["error"] == "invalid_grant"
        page = (await sync_to_async(here.get)("/settings/")).content.decode()
        assert "every app you let in is signed out" in page
        assert "No app can sign in as you." in page
        # The bot's personal token goes on.
        assert not await closes_within(bot_socket, 0.5)
        me = await sync_to_async(Client().get)(
            "/api/v1/me", headers={"Authorization": f"Bearer {bot_secret}"}
        )
        assert me.status_code == 200
    finally:
        await tablet_stream.close()
        await phone_socket.disconnect()
        await bot_socket.disconnect()


async def test_a_wrong_password_signs_no_app_out(alice):
    client_id = await sync_to_async(register)()

    def sign_in() -> dict:  # type: ignore[type-arg]
        browser = Client()
        browser.force_login(alice)
        return grant(browser, client_id, "read")

    app_tokens = await sync_to_async(sign_in)()
    comm = await _open(app_tokens["access_token"])
    try:
        here = await sync_to_async(signed_in)(alice)
        await sync_to_async(here.post)("/settings/sign-out-elsewhere", {"password": "no"})
        assert not await closes_within(comm, 0.5)
        me = await sync_to_async(Client().get)(
            "/api/v1/me", headers={"Authorization": f"Bearer {app_tokens['access_token']}"}
        )
        assert me.status_code == 200
    finally:
        await comm.disconnect()


async def test_a_code_allowed_just_before_gets_no_token_after(alice, password):
    # The consent page sent a code to an app on the lost phone moments ago; it has not been
    # exchanged yet. Signing out everywhere else ends it too: the app gets no token with it.
    client_id = await sync_to_async(register)()
    code, verifier = await sync_to_async(allow)(await sync_to_async(signed_in)(alice), client_id)
    here = await sync_to_async(signed_in)(alice)
    done = await sync_to_async(here.post)("/settings/sign-out-elsewhere", {"password": password})
    assert done.status_code == 302
    exchanged = await sync_to_async(exchange)(client_id, code, verifier)
    assert exchanged.status_code == 400 and exchanged.json()["error"] == "invalid_grant"
    assert "access_token" not in exchanged.json()
