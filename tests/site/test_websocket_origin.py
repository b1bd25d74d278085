"""A browser's websocket is let through only from the site's own origin: scheme, host and port.

The session cookie rides on every handshake, whichever page opened it; comparing the host
alone let ``Origin: http://127.0.0.1:1`` (another port, so another site) open a table socket.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from asgiref.sync import sync_to_async

from ginsite.asgi import application
from lobby.accounts import tokens
from tests.games.live_helpers import cookie_of, lobby_match, signed_in
from tests.sockets import Socket

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

TIMEOUT = 5


async def _opens(path: str, host: str, origin: str | None, *extra: tuple[bytes, bytes]) -> bool:
    headers = [(b"host", host.encode()), *extra]
    if origin is not None:
        headers.append((b"origin", origin.encode()))
    communicator = Socket(application, path, headers=headers)
    connected, _code = await communicator.connect(timeout=TIMEOUT)
    if connected:
        # The event socket refuses by accepting and closing with its code (4401), so that the
        # code reaches the client: opened means it served a first frame.
        first = await communicator.receive_output(timeout=TIMEOUT)
        connected = first["type"] != "websocket.close"
    await communicator.disconnect()
    return bool(connected)


async def _alice_at_her_table(alice: User, bob: User) -> tuple[str, tuple[bytes, bytes]]:
    match = await sync_to_async(lobby_match)(alice, bob)
    client = await sync_to_async(signed_in)(alice)
    return f"/ws/games/{match.public_id}/", (b"cookie", cookie_of(client))


@pytest.mark.parametrize(
    ("host", "origin", "opens"),
    [
        ("127.0.0.1:8000", "http://127.0.0.1:8000", True),
        ("127.0.0.1:8000", "http://127.0.0.1:1", False),  # another port: another site
        ("127.0.0.1:8000", "https://127.0.0.1:8000", False),  # another scheme
        ("127.0.0.1:8000", "http://127.0.0.1", False),  # port 80
        ("127.0.0.1:8000", "http://localhost:8000", False),  # another host
        ("localhost", "http://localhost:80", True),  # the default port, spelled out
        ("[::1]:8000", "http://[::1]:8000", True),
        ("evil.example:8000", "http://evil.example:8000", False),  # not in ALLOWED_HOSTS
        ("127.0.0.1:8000", None, False),
        ("127.0.0.1:8000", "null", False),
    ],
)
async def test_it_opens_a_table_socket_only_from_the_sites_own_origin(
    alice: User, bob: User, host: str, origin: str | None, opens: bool
) -> None:
    path, cookie = await _alice_at_her_table(alice, bob)
    assert await _opens(path, host, origin, cookie) is opens


@pytest.mark.parametrize(
    ("origin", "opens"), [("http://127.0.0.1:8000", True), ("http://127.0.0.1:1", False)]
)
async def test_it_opens_a_lobby_socket_only_from_the_sites_own_origin(
    alice: User, origin: str, opens: bool
) -> None:
    client = await sync_to_async(signed_in)(alice)
    assert (
        await _opens("/ws/lobby/", "127.0.0.1:8000", origin, (b"cookie", cookie_of(client)))
        is opens
    )


async def test_it_takes_the_scheme_from_a_tls_proxy_that_says_so(
    alice: User, bob: User, settings
) -> None:  # type: ignore[no-untyped-def]
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.ALLOWED_HOSTS = ["gin.example"]
    path, cookie = await _alice_at_her_table(alice, bob)
    https = (b"x-forwarded-proto", b"https")
    assert await _opens(path, "gin.example", "https://gin.example", cookie, https)
    assert not await _opens(path, "gin.example", "http://gin.example", cookie, https)
    assert not await _opens(path, "gin.example", "https://gin.example", cookie)


async def test_it_trusts_the_csrf_trusted_origins(alice: User, bob: User, settings) -> None:  # type: ignore[no-untyped-def]
    settings.CSRF_TRUSTED_ORIGINS = ["https://gin.example", "https://*.cards.example"]
    path, cookie = await _alice_at_her_table(alice, bob)
    assert await _opens(path, "127.0.0.1:8000", "https://gin.example", cookie)
    assert await _opens(path, "127.0.0.1:8000", "https://play.cards.example", cookie)
    assert not await _opens(path, "127.0.0.1:8000", "https://gin.example:8443", cookie)
    assert not await _opens(path, "127.0.0.1:8000", "http://gin.example", cookie)


async def test_the_event_socket_reads_the_session_only_from_the_sites_origin(
    alice: User,
) -> None:
    client = await sync_to_async(signed_in)(alice)
    cookie = (b"cookie", cookie_of(client))
    assert await _opens("/ws/events/", "127.0.0.1:8000", "http://127.0.0.1:8000", cookie)
    assert not await _opens("/ws/events/", "127.0.0.1:8000", "http://127.0.0.1:1", cookie)
    assert not await _opens("/ws/events/", "127.0.0.1:8000", "https://127.0.0.1:8000", cookie)


async def test_the_event_socket_takes_a_token_from_any_origin(alice: User) -> None:
    token = (await sync_to_async(tokens.create)(alice, "bot"))[1]
    bearer = (b"authorization", f"Bearer {token}".encode())
    assert await _opens("/ws/events/", "127.0.0.1:8000", "http://127.0.0.1:1", bearer)
    assert await _opens("/ws/events/", "127.0.0.1:8000", None, bearer)


async def test_it_refuses_a_socket_path_holding_nul(alice: User) -> None:
    client = await sync_to_async(signed_in)(alice)
    cookie = (b"cookie", cookie_of(client))
    assert not await _opens("/ws/games/\x00/", "127.0.0.1:8000", "http://127.0.0.1:8000", cookie)
