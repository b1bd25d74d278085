"""An event stream with nothing to say stays open on Redis: the channel layer's idle pops are
not read timeouts (they were: redis-py's 5 s default equals the layer's 5 s pop, and idle
sockets closed with 1011 one to three times a run)."""

from __future__ import annotations

import json
import time

import pytest
from asgiref.sync import sync_to_async

from ginsite.asgi import application
from lobby import tokens
from tests.distributed.test_scale_out import _needs_distributed_setup  # noqa: F401
from tests.sockets import Socket

pytestmark = [pytest.mark.distributed, pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

QUIET_SECONDS = 60


@pytest.mark.timeout(QUIET_SECONDS + 60)
async def test_a_quiet_stream_stays_open_for_a_minute(alice) -> None:  # type: ignore[no-untyped-def]
    token = (await sync_to_async(tokens.create)(alice, "quiet"))[1]
    socket = Socket(application, f"/ws/events/?token={token}")
    connected, _code = await socket.connect(timeout=10)
    assert connected
    try:
        assert json.loads(await socket.receive_from(timeout=10))["type"] == "hello"
        kinds: list[str] = []
        deadline = time.monotonic() + QUIET_SECONDS
        while time.monotonic() < deadline:
            message = await socket.receive_output(timeout=QUIET_SECONDS)
            assert message["type"] == "websocket.send", f"the stream closed: {message}"
            kinds.append(json.loads(message["text"])["type"])
        # Nothing happened, and the stream said so every ten seconds or so.
        assert set(kinds) <= {"keepalive", "presence"}
        assert kinds.count("keepalive") >= QUIET_SECONDS // 10 - 1
        await socket.send_to(text_data=json.dumps({"type": "ping"}))
        assert json.loads(await socket.receive_from(timeout=10))["type"] in ("pong", "keepalive")
    finally:
        await socket.disconnect()
