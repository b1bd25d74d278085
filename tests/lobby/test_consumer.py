"""The lobby stream over a real consumer: auth, pushes, garbage, expiry."""

from __future__ import annotations

import itertools
import json
import time

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client
from django.utils import timezone

from ginsite.asgi import application
from lobby import presence, services
from lobby.consumers import PUSH_EVERY_SECONDS, LobbyConsumer
from lobby.models import Challenge, Presence
from lobby.routing import websocket_urlpatterns
from tests.lobby.lobby_helpers import go_quiet, online
from tests.sockets import Socket

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def _connect(user: User) -> Socket:
    """A lobby socket for ``user``, with the first (catch-up) push already read."""
    communicator = Socket(URLRouter(websocket_urlpatterns), "/ws/lobby/")
    communicator.scope["user"] = user
    connected, _code = await communicator.connect()
    assert connected
    first = await communicator.receive_from()
    assert 'id="lobby-players"' in first
    return communicator


async def _receive_until(communicator: Socket, needle: str) -> str:
    """Frames until one contains ``needle`` (other regions may be pushed first)."""
    while True:
        frame = await communicator.receive_from()
        if needle in frame:
            return frame


async def _frames_until_quiet(communicator: Socket, quiet: float) -> list[str]:
    """Every frame until none has come for ``quiet`` seconds."""
    frames = []
    while not await communicator.receive_nothing(timeout=quiet):
        frames.append(await communicator.receive_from())
    return frames


async def _drain(communicator: Socket) -> None:
    while not await communicator.receive_nothing(timeout=0.2):
        await communicator.receive_from()


async def test_it_closes_an_anonymous_socket() -> None:
    communicator = Socket(
        application,
        "/ws/lobby/",
        headers=[(b"origin", b"http://testserver"), (b"host", b"testserver")],
    )
    connected, code = await communicator.connect()
    assert not connected
    assert code == 4401
    await communicator.disconnect()


async def test_it_serves_a_signed_in_player_through_the_whole_stack(alice: User) -> None:
    # The real ASGI application: origin check, session cookie, AuthMiddlewareStack.
    client = Client()
    await database_sync_to_async(client.force_login)(alice)
    cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
    communicator = Socket(
        application,
        "/ws/lobby/",
        headers=[(b"origin", b"http://testserver"), (b"host", b"testserver"), (b"cookie", cookie)],
    )
    connected, _code = await communicator.connect()
    try:
        assert connected
        frame = await communicator.receive_from()
        assert 'data-player="alice"' in frame
    finally:
        await communicator.disconnect()


async def test_it_counts_an_open_socket_as_online(alice: User) -> None:
    communicator = await _connect(alice)
    try:
        assert await database_sync_to_async(presence.is_online)(alice.pk)
    finally:
        await communicator.disconnect()


async def test_it_pushes_a_new_challenge_to_the_challenged_players_socket(
    alice: User, bob: User
) -> None:
    await database_sync_to_async(online)(alice)
    bobs = await _connect(bob)
    try:
        await _drain(bobs)
        await database_sync_to_async(services.challenge)(alice, bob, "classic", 150)
        frame = await _receive_until(bobs, 'id="lobby-challenges"')
        assert 'hx-swap-oob="true"' in frame
        assert "<strong>alice</strong> challenges you: Classic to 150." in frame
        assert "data-incoming=" in frame
    finally:
        await bobs.disconnect()


async def test_it_renders_each_players_own_regions(alice: User, bob: User, carol: User) -> None:
    await database_sync_to_async(online)(alice)
    bobs = await _connect(bob)
    carols = await _connect(carol)
    try:
        await _drain(bobs)
        await _drain(carols)
        await database_sync_to_async(services.challenge)(alice, bob, "standard", 100)
        # A push rendered just before the challenge was stored may still be on its way (pushes
        # are gathered for up to PUSH_EVERY_SECONDS): Bob's screen must come to show it...
        await _receive_until(bobs, "alice</strong> challenges you")
        # ... and none of Carol's, up to and after her first push that came after it.
        for_carol = await _frames_until_quiet(carols, quiet=2 * PUSH_EVERY_SECONDS)
        challenges = [frame for frame in for_carol if 'id="lobby-challenges"' in frame]
        assert challenges, "Carol's lobby was never told the challenges changed"
        assert not any("challenges you" in frame for frame in challenges)
        assert "Nobody has challenged you." in challenges[-1]
    finally:
        await bobs.disconnect()
        await carols.disconnect()


async def test_it_sends_both_players_to_the_match_on_accept(alice: User, bob: User) -> None:
    alices = await _connect(alice)
    bobs = await _connect(bob)
    try:
        item = await database_sync_to_async(services.challenge)(alice, bob, "standard", 100)
        match = await database_sync_to_async(services.accept_challenge)(item, bob)
        url = f"/games/{match.public_id}/"
        for socket in (alices, bobs):
            frame = await _receive_until(socket, "data-redirect")
            assert f'data-redirect="{url}"' in frame
    finally:
        await alices.disconnect()
        await bobs.disconnect()


async def test_it_shows_the_challenger_the_decline_reason(alice: User, bob: User) -> None:
    await database_sync_to_async(online)(bob)
    alices = await _connect(alice)
    try:
        item = await database_sync_to_async(services.challenge)(alice, bob, "standard", 100)
        await _receive_until(alices, "Waiting for an answer")
        await database_sync_to_async(services.decline_challenge)(item, bob, "later")
        frame = await _receive_until(alices, "declined")
        assert "<strong>bob</strong> declined: maybe later." in frame
    finally:
        await alices.disconnect()


@pytest.mark.parametrize(
    "garbage",
    ["not json", "[1, 2]", '"heartbeat"', '{"type": "drop_tables"}', "{}", "x" * 10000],
)
async def test_it_answers_garbage_and_keeps_serving(alice: User, bob: User, garbage: str) -> None:
    alices = await _connect(alice)
    bobs = await _connect(bob)
    try:
        await _drain(alices)
        await alices.send_to(text_data=garbage)
        # Bob's arrival may still be on its way to alice's lists (CI's two runs at once: after
        # a fifth of a second of quiet): the answer is the first notice.
        error = await _receive_until(alices, 'id="lobby-notice"')
        assert "did not understand" in error
        # Still serving: the same socket takes a heartbeat, both sockets get the next push.
        await alices.send_to(text_data=json.dumps({"type": "heartbeat"}))
        await database_sync_to_async(services.post_seek)(bob, "simple", 50)
        for socket in (alices, bobs):
            frame = await _receive_until(socket, "Simple to 50")
            assert 'id="lobby-seeks"' in frame
    finally:
        await alices.disconnect()
        await bobs.disconnect()


async def test_it_answers_a_binary_frame_too(alice: User) -> None:
    alices = await _connect(alice)
    try:
        await alices.send_to(bytes_data=b"\x00\xff")
        await _receive_until(alices, "did not understand")
    finally:
        await alices.disconnect()


async def test_it_refreshes_presence_on_heartbeat(alice: User) -> None:
    def quiet_for() -> float:
        last_seen = Presence.objects.get(user=alice).last_seen
        return (timezone.now() - last_seen).total_seconds()

    alices = await _connect(alice)
    try:
        await database_sync_to_async(go_quiet)(alice, 40)
        await alices.send_to(text_data=json.dumps({"type": "heartbeat", "HEADERS": {}}))
        # A socket handles its frames one after another: once a garbled frame after the beat
        # is answered, the beat has been handled (waiting for an event, not for a time).
        await alices.send_to(text_data="not a heartbeat")
        await _receive_until(alices, "did not understand")
        assert await database_sync_to_async(quiet_for)() < 5
    finally:
        await alices.disconnect()


async def test_it_drops_a_silent_player_and_expires_their_challenge(alice: User, bob: User) -> None:
    # alice's page died without a close: her row goes stale. bob's heartbeat runs the sweep,
    # which tells every page she is gone and her challenge with her.
    await database_sync_to_async(online)(alice)
    bobs = await _connect(bob)
    try:
        item = await database_sync_to_async(services.challenge)(alice, bob, "standard", 100)
        await _receive_until(bobs, "challenges you")
        await database_sync_to_async(go_quiet)(alice)
        # The sweep runs at most once per SWEEP_EVERY_SECONDS across every process; whatever
        # else beat in the shared cache during set-up (another socket of the suite's server),
        # this beat is the first of its period.
        await database_sync_to_async(cache.delete)(presence.SWEEP_LOCK)
        await bobs.send_to(text_data=json.dumps({"type": "heartbeat"}))
        players = await _receive_until(bobs, 'id="lobby-players"')
        assert 'data-player="alice"' not in players
        assert 'data-player="bob"' in players
        await database_sync_to_async(item.refresh_from_db)()
        assert item.status == Challenge.Status.EXPIRED
    finally:
        await bobs.disconnect()


async def test_it_keeps_a_closed_page_for_a_grace_period(alice: User) -> None:
    alices = await _connect(alice)
    await alices.disconnect()
    # A reload reconnects within the grace: no flicker, no expired challenges.
    assert await database_sync_to_async(presence.is_online)(alice.pk)
    await database_sync_to_async(go_quiet)(alice, 46)
    assert not await database_sync_to_async(presence.is_online)(alice.pk)


async def test_a_busy_lobby_reaches_a_page_at_most_once_a_second(
    alice: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    # When each push set out, read on the server: the frames' arrival times would also hold
    # the rendering's and the machine's delays, which a loaded machine stretches or squeezes.
    started_at: list[float] = []
    push = LobbyConsumer._push

    async def timed_push(self: LobbyConsumer, names: list[str] | tuple[str, ...]) -> None:
        started_at.append(time.monotonic())
        await push(self, names)

    monkeypatch.setattr(LobbyConsumer, "_push", timed_push)
    communicator = await _connect(alice)
    try:
        newcomers = [
            await database_sync_to_async(User.objects.create_user)(f"player{n}", password="x")
            for n in range(20)
        ]
        for user in newcomers:
            await database_sync_to_async(online)(user)
        everyone = [f'data-player="player{n}"' for n in range(20)]
        frames = [await communicator.receive_from()]
        while not all(player in frames[-1] for player in everyone):
            frames.append(await communicator.receive_from())
        # Twenty arrivals, and the page got one push a second at most, however long the
        # arrivals took on this machine; the last push has them all.
        gaps = [later - earlier for earlier, later in itertools.pairwise(started_at)]
        assert gaps and min(gaps) >= PUSH_EVERY_SECONDS * 0.99
    finally:
        await communicator.disconnect()
