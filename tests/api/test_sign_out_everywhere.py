"""A new password, "Sign out everywhere else" and the end of an account close every other
browser's sockets and streams (4401): a browser signed out that way kept receiving the
player's hand on its table socket (issue 28). API tokens survive a new password, as Settings
says, and "Revoke all tokens" ends them and their streams. (Apps signed in with OAuth are
signed out everywhere else too: tests/oauth/test_sign_out_everywhere.py.)"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest
import pytest_asyncio
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from django.test import Client

from ginsite.asgi import application
from lobby.accounts import tokens
from tests.games.live_helpers import cookie_of, lobby_match, signed_in, socket

from .streams import NdjsonStream
from .streams import closed_code as _closed
from .streams import closes_within as _closes_within

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

NEW_PASSWORD = "a brand new pass phrase for alice"


async def _ended(stream: NdjsonStream) -> bool:
    try:
        while True:
            await stream.line(timeout=5)
    except EOFError:
        return True


def _lobby_socket(cookie: bytes) -> WebsocketCommunicator:
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver"), (b"cookie", cookie)]
    return WebsocketCommunicator(application, "/ws/lobby/", headers=headers)


@dataclass
class Elsewhere:
    """alice signed in in another browser: its table and lobby sockets and its NDJSON stream;
    and a bot of hers with a token, streaming its events."""

    browser: Client
    table: WebsocketCommunicator
    lobby: WebsocketCommunicator
    stream: NdjsonStream
    bot: WebsocketCommunicator


@pytest_asyncio.fixture
async def elsewhere(alice: User, bob: User) -> AsyncIterator[Elsewhere]:
    match = await sync_to_async(lobby_match)(alice, bob)
    browser = await sync_to_async(signed_in)(alice)
    _token, secret = await sync_to_async(tokens.create)(alice, "bot")
    there = Elsewhere(
        browser,
        socket(match, cookie_of(browser)),
        _lobby_socket(cookie_of(browser)),
        NdjsonStream("/api/v1/events/stream", "", [(b"cookie", cookie_of(browser))]),
        WebsocketCommunicator(application, f"/ws/events/?token={secret}"),
    )
    for comm in (there.table, there.lobby, there.bot):
        assert (await comm.connect())[0]
        await comm.receive_output(timeout=5)  # the first push, or hello
    await there.stream.open()
    assert (await there.stream.line())["type"] == "hello"
    yield there
    for comm in (there.table, there.lobby, there.bot):
        await comm.disconnect()
    await there.stream.close()


async def _assert_signed_out_there(there: Elsewhere) -> None:
    assert await _closed(there.table) == 4401
    assert await _closed(there.lobby) == 4401
    assert await _ended(there.stream)
    # Its pages are signed out too: Django's own session check.
    settings_page = await sync_to_async(there.browser.get)("/settings/")
    assert settings_page.status_code == 302 and "/accounts/login/" in settings_page["Location"]


async def test_a_new_password_signs_every_other_browser_out_of_its_sockets(
    alice: User, password: str, elsewhere: Elsewhere
) -> None:
    here = await sync_to_async(signed_in)(alice)
    changed = await sync_to_async(here.post)(
        "/accounts/password/change/",
        {"oldpassword": password, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
    )
    assert changed.status_code == 302
    await _assert_signed_out_there(elsewhere)
    # This browser stays signed in, and the bot's token, as Settings says, keeps streaming.
    assert (await sync_to_async(here.get)("/settings/")).status_code == 200
    assert not await _closes_within(elsewhere.bot, 0.5)


async def test_signing_out_everywhere_else_does_the_same(
    alice: User, password: str, elsewhere: Elsewhere
) -> None:
    here = await sync_to_async(signed_in)(alice)
    done = await sync_to_async(here.post)("/settings/sign-out-elsewhere", {"password": password})
    assert done.status_code == 302
    await _assert_signed_out_there(elsewhere)
    page = (await sync_to_async(here.get)("/settings/")).content.decode()
    assert "You are signed out everywhere else, and every app you let in is signed out." in page
    assert not await _closes_within(elsewhere.bot, 0.5)
    # The password is still the same one: another browser signs in with it.
    again = Client()
    signed = await sync_to_async(again.post)(
        "/accounts/login/", {"login": "alice", "password": password}
    )
    assert signed.status_code == 302


async def test_a_wrong_password_signs_nobody_out(alice: User, elsewhere: Elsewhere) -> None:
    here = await sync_to_async(signed_in)(alice)
    refused = await sync_to_async(here.post)("/settings/sign-out-elsewhere", {"password": "no"})
    assert refused.status_code == 302
    page = (await sync_to_async(here.get)("/settings/")).content.decode()
    assert "That is not your password. Nobody was signed out." in page
    assert not await _closes_within(elsewhere.table, 0.5)
    assert (await sync_to_async(elsewhere.browser.get)("/settings/")).status_code == 200


async def test_revoking_all_tokens_ends_their_streams_and_no_session(
    alice: User, elsewhere: Elsewhere
) -> None:
    here = await sync_to_async(signed_in)(alice)
    second, second_secret = await sync_to_async(tokens.create)(alice, "phone")
    phone = NdjsonStream(
        "/api/v1/events/stream", "", [(b"authorization", f"Bearer {second_secret}".encode())]
    )
    await phone.open()
    try:
        assert (await phone.line())["type"] == "hello"
        done = await sync_to_async(here.post)("/settings/api-tokens/revoke-all")
        assert done.status_code == 302
        assert await _closed(elsewhere.bot) == 4401
        assert await _ended(phone)
        assert not await _closes_within(elsewhere.table, 0.5)
        assert not await sync_to_async(alice.api_tokens.exists)()
    finally:
        await phone.close()


async def test_deleting_the_account_ends_everything(alice: User, elsewhere: Elsewhere) -> None:
    # The site offers no deletion; the admin does (and a deactivation ends everything too).
    await sync_to_async(alice.delete)()
    await _assert_signed_out_there(elsewhere)
    assert await _closed(elsewhere.bot) == 4401


async def test_deactivating_the_account_ends_everything(alice: User, elsewhere: Elsewhere) -> None:
    alice.is_active = False
    await sync_to_async(alice.save)()
    await _assert_signed_out_there(elsewhere)
    assert await _closed(elsewhere.bot) == 4401
