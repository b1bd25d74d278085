"""An event stream with nothing to say stays open on Redis: the channel layer's idle pops are
not read timeouts (they were: redis-py's 5 s default equals the layer's 5 s pop, and idle
sockets closed with 1011 one to three times a run)."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async

from ginsite.asgi import application
from lobby.accounts import tokens
from lobby.events import stream as event_stream
from tests.distributed.test_scale_out import _needs_distributed_setup  # noqa: F401
from tests.sockets import Socket

pytestmark = [pytest.mark.distributed, pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

# Keep-alives come ten seconds apart at the least: six of them are a minute and more of quiet,
# however slow the machine.
KEEPALIVES = 6


@pytest.mark.timeout(300)
async def test_a_quiet_stream_stays_open_for_a_minute(alice) -> None:  # type: ignore[no-untyped-def]
    token = (await sync_to_async(tokens.create)(alice, "quiet"))[1]
    socket = Socket(application, f"/ws/events/?token={token}")
    connected, _code = await socket.connect()
    assert connected
    try:
        assert json.loads(await socket.receive_from())["type"] == "hello"
        kinds: list[str] = []
        while kinds.count("keepalive") < KEEPALIVES:
            message = await socket.receive_output(timeout=6 * event_stream.KEEPALIVE_SECONDS)
            assert message["type"] == "websocket.send", f"the stream closed: {message}"
            kinds.append(json.loads(message["text"])["type"])
        # Nothing happened, and the stream said so every ten seconds or so.
        assert set(kinds) <= {"keepalive", "presence"}
        await socket.send_to(text_data=json.dumps({"type": "ping"}))
        assert json.loads(await socket.receive_from())["type"] in ("pong", "keepalive")
    finally:
        await socket.disconnect()
