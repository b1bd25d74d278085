"""A moderator's action reaches the player's open sockets at once: a warning's notice on their
lobby and table pages (each in its own language), gone from all of them once acknowledged on
one; a ban's withdrawn seek from their lobby; a closure closes every socket and stream."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth.models import User

from ginsite.asgi import application
from lobby import services as lobby_services
from lobby.accounts import tokens
from lobby.moderation.models import Sanction
from lobby.moderation.sanctions import actions
from tests.api.streams import closed_code
from tests.games.live_helpers import cookie_of, frames, lobby_match, signed_in, socket
from tests.lobby.lobby_helpers import online
from tests.sockets import Socket

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

WARNED_EN = "A moderator has warned you about: Rude messages."
WARNED_DE = "Ein Moderator hat dich verwarnt wegen: Unhöfliche Nachrichten."


def _lobby_socket(cookie: bytes) -> Socket:
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver"), (b"cookie", cookie)]
    return Socket(application, "/ws/lobby/", headers=headers)


async def _until(comm: Socket, needle: str) -> str:
    """Frames until one holds ``needle`` (a test waits for the event, never for a time)."""
    while True:
        output = await comm.receive_output()
        assert output["type"] != "websocket.close", f"closed before {needle!r} came"
        text = output.get("text") or ""
        if needle in text:
            return text


async def _open(*comms: Socket) -> None:
    for comm in comms:
        assert (await comm.connect())[0]
        await comm.receive_output()  # the first push


def _moderator() -> User:
    from tests.moderation.helpers import make_moderator

    return make_moderator(User, "mo")


async def test_a_warning_reaches_the_lobby_and_the_table_at_once(alice: User, bob: User) -> None:
    mo = await sync_to_async(_moderator)()
    match = await sync_to_async(lobby_match)(alice, bob)
    browser = await sync_to_async(signed_in)(alice)
    lobby, table = _lobby_socket(cookie_of(browser)), socket(match, cookie_of(browser))
    bobs_table = socket(match, cookie_of(await sync_to_async(signed_in)(bob)))
    await _open(lobby, table, bobs_table)
    try:
        await sync_to_async(actions.act)(mo, alice, "warning", "rude_messages", "names")
        for comm in (lobby, table):
            frame = await _until(comm, 'id="moderation-notice"')
            assert WARNED_EN in frame and 'hx-swap-oob="true"' in frame
        # bob's socket is told nothing of it (it hears of alice's sockets coming, no more).
        assert not any("moderation" in text for text in await frames(bobs_table, quiet=0.5))

        # Acknowledged on one page: gone from the other too.
        warning = await sync_to_async(Sanction.objects.get)(user=alice)
        answer = await sync_to_async(browser.post)(
            f"/notices/{warning.pk}/acknowledge", HTTP_HX_REQUEST="true"
        )
        assert answer.status_code == 200
        frame = await _until(table, 'id="moderation-notice"')
        assert WARNED_EN not in frame and "hidden" in frame
    finally:
        for comm in (lobby, table, bobs_table):
            await comm.disconnect()


async def test_each_page_hears_it_in_its_own_language(alice: User, bob: User) -> None:
    mo = await sync_to_async(_moderator)()
    match = await sync_to_async(lobby_match)(alice, bob)
    browser = await sync_to_async(signed_in)(alice)
    german = socket(match, cookie_of(browser) + b"; django_language=de")
    english = socket(match, cookie_of(browser) + b"; django_language=en")
    await _open(german, english)
    try:
        await sync_to_async(actions.act)(mo, alice, "warning", "rude_messages", "names")
        assert WARNED_DE in await _until(german, 'id="moderation-notice"')
        assert WARNED_EN in await _until(english, 'id="moderation-notice"')
    finally:
        await german.disconnect()
        await english.disconnect()


async def test_a_ban_takes_the_rated_seek_off_the_open_lobby(alice: User, bob: User) -> None:
    mo = await sync_to_async(_moderator)()
    await sync_to_async(online)(alice, bob)
    seek = await sync_to_async(lobby_services.post_seek)(alice, "standard", 100, rated=True)
    bobs_lobby = _lobby_socket(cookie_of(await sync_to_async(signed_in)(bob)))
    assert (await bobs_lobby.connect())[0]
    assert f'data-seek="{seek.pk}"' in await _until(bobs_lobby, 'id="lobby-seeks"')
    try:
        await sync_to_async(actions.act)(mo, alice, "rated_ban", "rating_abuse", "farm")
        frame = await _until(bobs_lobby, 'id="lobby-seeks"')
        assert f'data-seek="{seek.pk}"' not in frame
    finally:
        await bobs_lobby.disconnect()


async def test_a_closure_closes_every_socket_and_stream_of_the_account(
    alice: User, bob: User
) -> None:
    mo = await sync_to_async(_moderator)()
    match = await sync_to_async(lobby_match)(alice, bob)
    browser = await sync_to_async(signed_in)(alice)
    _token, secret = await sync_to_async(tokens.create)(alice, "bot")
    lobby, table = _lobby_socket(cookie_of(browser)), socket(match, cookie_of(browser))
    events = Socket(application, f"/ws/events/?token={secret}")
    await _open(lobby, table, events)
    try:
        await sync_to_async(actions.act)(mo, alice, "closure", "rating_abuse", "farm")
        for comm in (lobby, table, events):
            assert await closed_code(comm) == 4401
    finally:
        for comm in (lobby, table, events):
            await comm.disconnect()


async def test_the_event_stream_hears_the_warning(alice: User) -> None:
    mo = await sync_to_async(_moderator)()
    _token, secret = await sync_to_async(tokens.create)(alice, "bot")
    events = Socket(application, f"/ws/events/?token={secret}")
    assert (await events.connect())[0]
    assert (await events.receive_json_from())["type"] == "hello"
    try:
        await sync_to_async(actions.act)(mo, alice, "warning", "stalling", "slow on purpose")
        frame: dict[str, Any] = await events.receive_json_from()
        while frame["type"] != "moderation":
            frame = await events.receive_json_from()
        assert frame["data"]["kind"] == "warning" and frame["data"]["topic"] == "stalling"
        assert "slow on purpose" not in str(frame)  # the moderator's reason is for the log
    finally:
        await events.disconnect()
