"""Sockets give their PostgreSQL connections back to the pool. A connection a socket's
database work keeps (opened in a worker thread and never closed) is lost to the pool for
good: after DB_POOL_MAX of them every page and socket of the process waits 10 s and fails
(what a CI run showed, halfway through the suite, after asgiref 3.12 moved the work of
``database_sync_to_async`` into a context its own clean-up does not see)."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async
from django.db import connections

from ginsite.asgi import application
from lobby.accounts import tokens
from tests.distributed.test_scale_out import _needs_distributed_setup  # noqa: F401
from tests.games.live_helpers import cookie_of, frames, lobby_match, signed_in, socket
from tests.sockets import Socket

pytestmark = [
    pytest.mark.distributed,
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
]

ROUNDS = 6


def _checked_out() -> int:
    """How many of the pool's connections are out (in use or lost)."""
    stats = connections["default"].pool.get_stats()
    return stats["pool_size"] - stats["pool_available"]


def _site_socket(path: str, cookie: bytes | None = None) -> Socket:
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
    if cookie:
        headers.append((b"cookie", cookie))
    return Socket(application, path, headers=headers)


async def _open_read_close(comm: Socket) -> None:
    connected, _code = await comm.connect()
    assert connected
    try:
        await frames(comm, quiet=0.1)  # whatever it sends on connect, read
    finally:
        await comm.disconnect()


async def test_table_lobby_and_event_sockets_return_their_connections(alice, bob):
    if connections["default"].vendor != "postgresql":
        pytest.skip("the connection pool is PostgreSQL's")
    match = await sync_to_async(lobby_match)(alice, bob)
    cookies = [cookie_of(await sync_to_async(signed_in)(user)) for user in (alice, bob)]
    token = (await sync_to_async(tokens.create)(alice, "pool test"))[1]
    await _open_read_close(socket(match, cookies[0]))  # the process's own threads warm up
    before = await sync_to_async(_checked_out)()
    for _round in range(ROUNDS):
        await asyncio.gather(
            *(_open_read_close(socket(match, cookie)) for cookie in cookies),
            _open_read_close(_site_socket("/ws/lobby/", cookies[1])),
            _open_read_close(_site_socket(f"/ws/events/?token={token}&presence=false")),
        )
    after = await _settled(before)
    assert after <= before, f"{after - before} connections never came back to the pool"


async def _settled(before: int, seconds: float = 5.0) -> int:
    """The connections out once the sockets' clean-up has had its moment: a socket hands its
    connection back on a worker thread after its disconnect returns, a moment later on a loaded
    machine; a lost one never comes back."""
    deadline = asyncio.get_running_loop().time() + seconds
    while True:
        out = await sync_to_async(_checked_out)()
        if out <= before or asyncio.get_running_loop().time() > deadline:
            return out
        await asyncio.sleep(0.1)
