"""Credentials that end take their sockets and streams with them: revoking a token closes the
event socket and ends the NDJSON stream opened with it; signing out closes the table and lobby
sockets that browser opened. None of them goes on serving the player's hand."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from ginsite.asgi import application
from lobby.accounts import tokens
from tests.games.live_helpers import cookie_of, lobby_match, signed_in, socket
from tests.sockets import Socket

from .streams import NdjsonStream
from .streams import closed_code as _closed
from .streams import closes_within as _closes_within

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def test_revoking_a_token_closes_its_event_socket(alice, bob) -> None:  # type: ignore[no-untyped-def]
    kept, kept_secret = await sync_to_async(tokens.create)(alice, "phone")
    gone, gone_secret = await sync_to_async(tokens.create)(alice, "old laptop")
    closing = Socket(application, f"/ws/events/?token={gone_secret}")
    staying = Socket(application, f"/ws/events/?token={kept_secret}")
    for comm in (closing, staying):
        assert (await comm.connect())[0]
        assert (await comm.receive_json_from())["type"] == "hello"
    try:
        assert await sync_to_async(tokens.revoke)(alice, gone.pk)
        assert await _closed(closing) == 4401
        # The other token's socket goes on, and still hears of alice's matches.
        await sync_to_async(lobby_match)(alice, bob)
        frame = await staying.receive_json_from()
        while frame["type"] != "match":
            frame = await staying.receive_json_from()
    finally:
        await staying.disconnect()
        await closing.disconnect()


async def test_revoking_a_token_ends_its_ndjson_stream(alice) -> None:  # type: ignore[no-untyped-def]
    token, secret = await sync_to_async(tokens.create)(alice, "bot")
    stream = NdjsonStream(
        "/api/v1/events/stream", "", [(b"authorization", f"Bearer {secret}".encode())]
    )
    await stream.open()
    try:
        assert (await stream.line())["type"] == "hello"
        await sync_to_async(tokens.revoke)(alice, token.pk)
        with pytest.raises(EOFError):
            while True:
                await stream.line()
    finally:
        await stream.close()


async def test_signing_out_closes_the_table_and_lobby_sockets_of_that_browser(alice, bob) -> None:  # type: ignore[no-untyped-def]
    match = await sync_to_async(lobby_match)(alice, bob)
    browser = await sync_to_async(signed_in)(alice)
    other_device = await sync_to_async(signed_in)(alice)
    table = socket(match, cookie_of(browser))
    elsewhere = socket(match, cookie_of(other_device))
    lobby = Socket(
        application,
        "/ws/lobby/",
        headers=[
            (b"origin", b"http://testserver"),
            (b"host", b"testserver"),
            (b"cookie", cookie_of(browser)),
        ],
    )
    for comm in (table, elsewhere, lobby):
        assert (await comm.connect())[0]
        await comm.receive_output()  # the first push
    try:
        response = await sync_to_async(browser.post)("/accounts/logout/")
        assert response.status_code == 302
        assert await _closed(table) == 4401
        assert await _closed(lobby) == 4401
        # The same player's page on another device keeps its socket (a table push may still
        # come to it, as the closed socket's seat is announced; a close may not).
        assert not await _closes_within(elsewhere, 0.5)
    finally:
        for comm in (table, elsewhere, lobby):
            await comm.disconnect()
