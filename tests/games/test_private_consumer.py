"""The match socket at a private table: a guest is known by the seat-key cookie of the
handshake, receives only their own hand, and shows as connected to the host."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from django.test import Client
from django.urls import reverse

from games import access, services
from games.live import presence
from games.models import Match, PrivateTable, Seat
from games.private import tables as private

from .conftest import ALICE_KNOCKS, BEA_LOOSE, hand, stacked
from .live_helpers import call, cookie_of, frames, opening_frames, shown_cards, signed_in, socket

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

GUEST = BEA_LOOSE


def _open_and_join(alice: User, allow_spectators: bool = False) -> tuple[PrivateTable, Match, str]:
    table, match, _ = private.open_table(
        alice, deck=stacked(ALICE_KNOCKS, GUEST, "QC", "2D"), allow_spectators=allow_spectators
    )
    client = Client()
    response = client.post(reverse("games:private_join", args=[table.token]), {"name": "Dora"})
    return table, match, response.cookies[access.seat_cookie(table)].value


def seat_cookie(table: PrivateTable, key: str) -> bytes:
    return f"{access.seat_cookie(table)}={key}".encode()


async def test_a_guest_connects_with_their_seat_key_and_sees_only_their_hand(alice: User):
    table, match, key = await call(_open_and_join, alice)
    host_cookie = await call(lambda: cookie_of(signed_in(alice)))
    guest = socket(match, seat_cookie(table, key))
    host = socket(match, host_cookie)
    assert (await guest.connect())[0]
    assert (await host.connect())[0]
    try:
        guest_frames = await opening_frames(guest)
        host_frames = await opening_frames(host)
        everything = "".join(guest_frames)
        assert shown_cards(guest_frames[0], GUEST) == hand(GUEST)
        assert shown_cards(everything, ALICE_KNOCKS) == []
        assert shown_cards("".join(host_frames), GUEST) == []
        assert "Dora: connected" in "".join(host_frames)
        seats = await call(lambda: list(Seat.objects.filter(match=match).order_by("number")))
        assert all(presence.is_connected(s) for s in seats)
        # Both connected: the host's move goes through and the guest hears of it.
        await call(services.submit, match, 0, {"type": "pass"}, 0)
        after = "".join(await frames(guest, until='data-version="1"'))
        assert "Your turn" in after and shown_cards(after, ALICE_KNOCKS) == []
    finally:
        await guest.disconnect()
        await host.disconnect()
    seat = await call(Seat.objects.get, match=match, number=1)
    assert seat.connections == 0


async def test_a_forged_or_foreign_seat_key_is_refused(alice: User):
    table, match, key = await call(_open_and_join, alice)
    other_table, _other, other_key = await call(_open_and_join, alice)
    for cookie in (
        seat_cookie(table, key[:-1] + ("A" if key[-1] != "A" else "B")),
        seat_cookie(table, other_key),  # a real key, for another table
        seat_cookie(other_table, key),
        None,
    ):
        comm = socket(match, cookie)
        connected, _code = await comm.connect()
        assert not connected
        await comm.disconnect()
    seat = await call(Seat.objects.get, match=match, number=1)
    assert seat.connections == 0


async def test_an_anonymous_watcher_connects_only_if_the_host_allowed_it(alice: User):
    _table, open_match, _ = await call(_open_and_join, alice, True)
    _table, closed_match, _ = await call(_open_and_join, alice, False)
    watcher = socket(open_match, None)
    assert (await watcher.connect())[0]
    try:
        seen = "".join(await opening_frames(watcher))
        assert shown_cards(seen, ALICE_KNOCKS) == [] and shown_cards(seen, GUEST) == []
    finally:
        await watcher.disconnect()
    refused = socket(closed_match, None)
    assert not (await refused.connect())[0]
    await refused.disconnect()
