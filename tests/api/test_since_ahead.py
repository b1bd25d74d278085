"""A ``since`` past the player's last event is refused with a JSON error, on every way to read
events: it used to be accepted and mute the stream until the log caught up with it."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async

from ginsite.asgi import application
from lobby.events import log as event_log
from tests.sockets import Socket

from .conftest import Api, body, token_for
from .streams import NdjsonStream, closed_code

pytestmark = pytest.mark.django_db(transaction=True)


def _two_events(user) -> None:
    for _n in range(2):
        event_log.record(user.pk, "match", {"match": "m", "version": 0, "status": "active"})


def test_polling_past_the_last_event_is_refused(alice, alice_api: Api):
    _two_events(alice)
    response = alice_api.get("/events", since=3)
    assert response.status_code == 422
    error = body(response)
    assert error["code"] == "since_ahead" and "2" in error["message"]
    # Up to the last event is a cursor like any other.
    assert body(alice_api.get("/events", since=2))["events"] == []
    assert [e["seq"] for e in body(alice_api.get("/events", since=1))["events"]] == [2]


@pytest.mark.asyncio
async def test_the_ndjson_stream_refuses_it_before_streaming(alice):
    await sync_to_async(_two_events)(alice)
    token = await sync_to_async(token_for)(alice)
    stream = NdjsonStream(
        "/api/v1/events/stream", "since=9", [(b"authorization", f"Bearer {token}".encode())]
    )
    await stream.open()
    try:
        assert stream.status == 422
        assert json.loads(await stream.body())["code"] == "since_ahead"
    finally:
        await stream.close()


@pytest.mark.asyncio
async def test_the_websocket_says_so_and_closes(alice):
    await sync_to_async(_two_events)(alice)
    token = await sync_to_async(token_for)(alice)
    comm = Socket(
        application, f"/ws/events/?since=3&token={token}", headers=[(b"host", b"testserver")]
    )
    connected, _ = await comm.connect()
    assert connected
    frame = await comm.receive_json_from()
    assert frame["type"] == "error" and frame["code"] == "since_ahead"
    assert await closed_code(comm) == 4422
