"""Quick messages reach the table as a bubble, pushed over the table socket to both players
(and to watchers), never to a reader who muted the match."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from channels.db import database_sync_to_async

from games.live import quick_messages

from .live_helpers import cookie_of, frames, lobby_match, opening_frames, signed_in, socket

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from games.models import Match

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture
def match(alice: User, bob: User) -> Match:
    return lobby_match(alice, bob)


async def _open(match: Match, user: User):  # type: ignore[no-untyped-def]
    cookie = await database_sync_to_async(lambda: cookie_of(signed_in(user)))()
    comm = socket(match, cookie)
    connected, _code = await comm.connect()
    assert connected
    await opening_frames(comm)
    return comm


def _bubbles(texts: list[str]) -> list[str]:
    return [t for t in texts if 'id="quick-bubble"' in t]


async def test_both_players_and_a_watcher_see_the_bubble(
    match: Match, alice: User, bob: User, carol: User
) -> None:
    pages = [await _open(match, user) for user in (alice, bob, carol)]
    await database_sync_to_async(quick_messages.send)(match, 0, "good_luck")
    got = [_bubbles(await frames(page, until="quick-bubble")) for page in pages]
    assert all(len(bubbles) == 1 for bubbles in got)
    assert "<strong>You:</strong> Good luck" in got[0][0]
    assert "<strong>alice:</strong> Good luck" in got[1][0]
    assert "<strong>alice:</strong> Good luck" in got[2][0]
    assert 'hx-swap-oob="true"' in got[1][0]
    for page in pages:
        await page.disconnect()


async def test_a_reader_who_muted_the_match_gets_no_bubble(
    match: Match, alice: User, bob: User
) -> None:
    await database_sync_to_async(quick_messages.set_muted)(match, "seat:1", True)
    alice_page, bob_page = await _open(match, alice), await _open(match, bob)
    await database_sync_to_async(quick_messages.send)(match, 0, "oops")
    assert _bubbles(await frames(alice_page, until="quick-bubble"))
    # Unmuted, Bob says something himself: the first bubble his page gets is his own, so
    # Alice's "Oops" (told to his socket before it) never came.
    await database_sync_to_async(quick_messages.set_muted)(match, "seat:1", False)
    await database_sync_to_async(quick_messages.send)(match, 1, "thanks")
    bubbles = _bubbles(await frames(bob_page, until="quick-bubble"))
    assert "<strong>You:</strong> Thanks" in bubbles[0]
    assert not any("Oops" in bubble for bubble in bubbles)
    for page in (alice_page, bob_page):
        await page.disconnect()
