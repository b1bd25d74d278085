"""The match socket (/ws/games/<id>/) through channels' test communicator: who may connect, what
each seat receives, watchers, and garbage frames."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from datetime import timedelta
from typing import TYPE_CHECKING

import pytest
from django.utils import timezone

from games import services
from games.engine import display
from games.live import presence
from games.models import Match, Seat
from lobby import presence as lobby_presence
from tests.sockets import PATIENCE

from .conftest import ALICE_KNOCKS, BEA_LOOSE, hand, stacked
from .live_helpers import (
    call,
    close_code,
    frames,
    json_frames,
    lobby_match,
    opening_frames,
    shown_cards,
    socket,
    submit,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

BOB = BEA_LOOSE


_codes_shown = shown_cards


@pytest.fixture
def match(alice: User, bob: User) -> Match:
    return lobby_match(alice, bob, stacked(ALICE_KNOCKS, BOB, "QC", "2D"))


async def test_it_refuses_anonymous_visitors(match: Match):
    comm = socket(match, None)
    connected, code = await comm.connect()
    assert not connected
    await comm.disconnect()


async def test_it_refuses_an_unknown_match(cookies: dict[str, bytes]):
    comm = socket("no-such-match", cookies["alice"])
    connected, _code = await comm.connect()
    assert not connected
    await comm.disconnect()


async def test_it_refuses_a_watcher_of_a_match_against_bea(alice: User, cookies):
    bea_match = await call(services.start_bea_match, alice, "standard", 100, "easy")
    comm = socket(bea_match, cookies["carol"])
    connected, _code = await comm.connect()
    assert not connected
    await comm.disconnect()


async def test_it_sends_each_seat_a_full_refresh_of_its_own_hand_only(match: Match, cookies):
    alice = socket(match, cookies["alice"])
    bob = socket(match, cookies["bob"])
    assert (await alice.connect())[0]
    assert (await bob.connect())[0]
    try:
        alice_frames = await opening_frames(alice)
        bob_frames = await opening_frames(bob)
        first = alice_frames[0]
        for region in ("table-version", "status", "hand", "pile", "live", "notice"):
            assert f'id="{region}"' in first
        assert sorted(_codes_shown(first, ALICE_KNOCKS)) == sorted(hand(ALICE_KNOCKS))
        everything_alice_got = "".join(alice_frames)
        assert _codes_shown(everything_alice_got, BOB) == []
        assert _codes_shown("".join(bob_frames), ALICE_KNOCKS) == []
        assert sorted(_codes_shown(bob_frames[0], BOB)) == sorted(hand(BOB))
    finally:
        await alice.disconnect()
        await bob.disconnect()


async def test_it_pushes_the_other_seat_its_changed_regions_after_a_move(match: Match, cookies):
    alice = socket(match, cookies["alice"])
    bob = socket(match, cookies["bob"])
    await alice.connect()
    await bob.connect()
    try:
        await opening_frames(alice)
        await opening_frames(bob)
        await submit(match, 0, {"type": "pass"})
        pushed = "".join(await frames(bob, until='data-version="1"'))
        assert 'id="status"' in pushed and 'hx-swap-oob="true"' in pushed
        assert "Your turn: take the upcard" in pushed
        assert 'data-version="1"' in pushed
        # Bob's hand did not change, so it is not sent again; nothing of alice's is.
        assert 'id="hand"' not in pushed
        assert _codes_shown(pushed, ALICE_KNOCKS) == []
        alice_got = "".join(await frames(alice, until='data-version="1"'))
        assert "Waiting for bob" in alice_got
        assert _codes_shown(alice_got, BOB) == []
    finally:
        await alice.disconnect()
        await bob.disconnect()


async def test_it_shows_a_watcher_neither_hand(match: Match, cookies):
    carol = socket(match, cookies["carol"])
    assert (await carol.connect())[0]
    try:
        await submit(match, 0, {"type": "pass"})
        await submit(match, 1, {"type": "pass"})
        await submit(match, 0, {"type": "draw", "from": "stock"})
        got = "".join(await frames(carol, until='data-version="3"'))
        assert 'id="hand"' in got
        assert _codes_shown(got, ALICE_KNOCKS) == []
        assert _codes_shown(got, BOB) == []
        assert "2D" not in got and display("2D") not in got  # alice's draw from the stock
        assert "alice to move." in got
        # A watcher never gets a button to press.
        for button in ('name="move"', "Resign", "Claim the win", "Offer"):
            assert button not in got
    finally:
        await carol.disconnect()


async def test_it_answers_garbage_with_an_error_and_keeps_serving(match: Match, cookies):
    alice = socket(match, cookies["alice"])
    bob = socket(match, cookies["bob"])
    await alice.connect()
    await bob.connect()
    try:
        await opening_frames(alice)
        await opening_frames(bob)
        for garbage in ("not json", "[1, 2]", '{"type": "discard", "card": "AS"}', "x" * 100_000):
            await alice.send_to(text_data=garbage)
            reply = json_frames(await frames(alice, until='"error"'))
            assert reply and reply[0]["type"] == "error", garbage
        await alice.send_to(bytes_data=b"\x00\xff")
        assert json_frames(await frames(alice, until='"error"'))[0]["type"] == "error"
        # Still serving: a ping is answered and a move is pushed, to alice and to bob.
        await alice.send_json_to({"type": "ping"})
        assert json_frames(await frames(alice, until='"pong"')) == [{"type": "pong"}]
        await submit(match, 0, {"type": "pass"})
        await frames(alice, until='data-version="1"')  # waits for it, fails if it never comes
        await frames(bob, until='data-version="1"')
        await alice.send_json_to({"type": "refresh"})
        await frames(alice, until='id="hand"')
    finally:
        await alice.disconnect()
        await bob.disconnect()


async def test_it_shows_the_opponent_connected_then_away(match: Match, cookies):
    bob = socket(match, cookies["bob"])
    await bob.connect()
    try:
        first = "".join(await opening_frames(bob))
        assert "alice: away" in first
        alice = socket(match, cookies["alice"])
        await alice.connect()
        await frames(bob, until="alice: connected")
        await alice.disconnect()
        await frames(bob, until="alice: away")
    finally:
        await bob.disconnect()
    seats = await call(lambda: list(Seat.objects.filter(match=match).values_list("connections")))
    assert seats == [(0,), (0,)]


async def test_it_pushes_a_resignation_to_the_other_side(match: Match, cookies):
    bob = socket(match, cookies["bob"])
    await bob.connect()
    try:
        await opening_frames(bob)
        await call(services.resign, match, 0, match.version)
        got = "".join(await frames(bob, until="This match was resigned."))
        assert "This match was resigned." in got and "You won it." in got
        assert "Offer a rematch" in got
    finally:
        await bob.disconnect()


async def test_both_pages_follow_an_accepted_rematch(match: Match, cookies):
    alice = socket(match, cookies["alice"])
    bob = socket(match, cookies["bob"])
    await alice.connect()
    await bob.connect()
    try:
        await call(services.resign, match, 1, match.version)
        await frames(alice)
        await frames(bob)
        offer = await call(services.make_offer, match, 0, "rematch", match.version)
        await frames(bob, until="alice offers a rematch.")
        new = await call(services.answer_offer, match, 1, offer.pk, "accept", match.version)
        for comm in (alice, bob):
            pushed = await frames(comm, until='"redirect"')
            redirects = [f for f in json_frames(pushed) if f["type"] == "redirect"]
            assert redirects == [{"type": "redirect", "url": f"/games/{new.public_id}/"}]
    finally:
        await alice.disconnect()
        await bob.disconnect()


async def test_a_player_at_a_table_counts_as_online_in_the_lobby(match: Match, cookies):
    alice_id = await call(lambda: match.seats.get(number=0).user_id)
    assert not await call(lobby_presence.is_online, alice_id)
    comm = socket(match, cookies["alice"])
    assert (await comm.connect())[0]
    try:
        await opening_frames(comm)
        # The table is pushed first, then the lobby hears of the player (a loaded machine may
        # take a while between the two): online once it has, before the socket closes.
        for _ in range(100):
            if await call(lobby_presence.is_online, alice_id):
                break
            await asyncio.sleep(0.1)
        assert await call(lobby_presence.is_online, alice_id)
    finally:
        await comm.disconnect()
    # Closing the table's socket leaves the player online for the short grace period a closed
    # lobby page gets (a reload must not flicker), and no longer.
    assert await call(lobby_presence.is_online, alice_id)
    later = timezone.now() + lobby_presence.CLOSE_GRACE + timedelta(seconds=1)
    assert not await call(lobby_presence.is_online, alice_id, later)


async def test_a_table_whose_match_is_gone_closes_instead_of_beating_on(
    match: Match, cookies, monkeypatch: pytest.MonkeyPatch
):
    # An expired guest's table is deleted while its page is still open: the socket closes with
    # 4404 at the next beat, not beating (and keeping its player "online") for ever.
    monkeypatch.setattr(presence, "HEARTBEAT_SECONDS", 0.2)
    alice = socket(match, cookies["alice"])
    assert (await alice.connect())[0]
    await opening_frames(alice)
    await call(lambda: Match.objects.filter(pk=match.pk).delete())
    assert await close_code(alice) == 4404


async def test_a_refresh_of_a_match_that_is_gone_closes_the_socket(match: Match, cookies):
    bob = socket(match, cookies["bob"])
    assert (await bob.connect())[0]
    await opening_frames(bob)
    await call(lambda: Match.objects.filter(pk=match.pk).delete())
    await bob.send_json_to({"type": "refresh"})
    assert await close_code(bob) == 4404


async def test_a_table_socket_the_server_cancels_stops_beating(
    match: Match, cookies, monkeypatch: pytest.MonkeyPatch
):
    # daphne cancels a consumer still running 10 s after its client left (its database work
    # was stuck, say): no disconnect handler runs then, and the heartbeat must not outlive it,
    # or the seat would count as connected, and its player as online, for ever.
    monkeypatch.setattr(presence, "HEARTBEAT_SECONDS", 0.05)
    started: list[int] = []
    finished: list[int] = []
    beat = presence.seat_heartbeat

    def counted(*args: object) -> None:
        started.append(1)
        try:
            beat(*args)  # type: ignore[arg-type]
        finally:
            finished.append(1)

    monkeypatch.setattr(presence, "seat_heartbeat", counted)
    alice = socket(match, cookies["alice"])
    assert (await alice.connect())[0]
    await opening_frames(alice)
    await _until(lambda: started, "the open socket never beat")
    alice.future.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await alice.future
    # A beat already under way (its thread cannot be cancelled) finishes; then none starts,
    # though ten beats' worth of time goes by.
    await _until(lambda: len(finished) == len(started), "a beat under way never finished")
    beats = len(started)
    await asyncio.sleep(10 * 0.05)
    assert len(started) == beats


async def _until(happened: Callable[[], object], never: str) -> None:
    """Wait for ``happened()`` to be true (up to PATIENCE), a thread's doing."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + PATIENCE
    while not happened():
        assert loop.time() < deadline, never
        await asyncio.sleep(0.01)
