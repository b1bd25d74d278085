"""The lobby hears of every change of a lobby match from games' announcement: starting,
resigning, claiming and playing out a match update "Matches in progress" and the players'
"in a match" badges on every open lobby page, over the lobby socket."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from django.contrib.auth.models import User
from django.utils import timezone

from games import services
from games.models import Match, Seat
from lobby.routing import websocket_urlpatterns
from tests.games.conftest import ALICE_KNOCKS, BEA_LOOSE, stacked
from tests.games.live_helpers import lobby_match
from tests.lobby.lobby_helpers import online
from tests.seeds import deal
from tests.sockets import Socket

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

# Alice passes, bob passes, alice draws 10♣ from the stock and goes gin discarding K♦: 25 for
# gin and bob's 80 deadwood end a match to 50 in one hand.
GIN_DECK = stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "TC")


async def _lobby_of(user: User) -> Socket:
    communicator = Socket(URLRouter(websocket_urlpatterns), "/ws/lobby/")
    communicator.scope["user"] = user
    connected, _code = await communicator.connect()
    assert connected
    await communicator.receive_from()  # the catch-up push
    return communicator


async def _regions(communicator: Socket, *names: str) -> dict[str, str]:
    """The next pushed HTML of each named region (one frame may hold several)."""
    found: dict[str, str] = {}
    while len(found) < len(names):
        frame = await communicator.receive_from()
        for name in names:
            if f'id="{name}"' in frame:
                found[name] = frame.split(f'id="{name}"')[1].split("</section>")[0]
    return found


def _alice_goes_gin(match: Match) -> None:
    for seat, action in (
        (0, {"type": "pass"}),
        (1, {"type": "pass"}),
        (0, {"type": "draw", "from": "stock"}),
        (0, {"type": "gin", "card": "KD"}),
    ):
        services.submit(match, seat, action, match.version)


def _start(alice: User, bob: User, deck: list[str] | None = None, target: int = 100) -> Match:
    online(alice, bob)
    return lobby_match(alice, bob, deck=deck, target=target)


async def _watching(  # type: ignore[no-untyped-def]
    carol: User, alice: User, bob: User, deck: list[str] | None = None, target: int = 100
):
    """carol's lobby page, open while alice and bob sit down: it shows their match."""
    await database_sync_to_async(online)(carol)
    page = await _lobby_of(carol)
    match = await database_sync_to_async(_start)(alice, bob, deck, target)
    shown = await _regions(page, "lobby-matches", "lobby-players")
    assert f'data-match="{match.public_id}"' in shown["lobby-matches"]
    assert shown["lobby-players"].count("in a match") == 2
    return page, match


async def _assert_gone(page: Socket, match: Match) -> None:
    shown = await _regions(page, "lobby-matches", "lobby-players")
    assert f'data-match="{match.public_id}"' not in shown["lobby-matches"]
    assert "in a match" not in shown["lobby-players"]


async def test_resigning_updates_the_lobby(alice: User, bob: User, carol: User) -> None:
    page, match = await _watching(carol, alice, bob)
    try:
        await database_sync_to_async(services.resign)(match, 0, match.version)
        await _assert_gone(page, match)
    finally:
        await page.disconnect()


async def test_claiming_the_win_updates_the_lobby(alice: User, bob: User, carol: User) -> None:
    page, match = await _watching(carol, alice, bob)
    try:
        # alice is to move (once the hand is dealt) and has been away for minutes: bob claims
        # the win.
        await database_sync_to_async(deal)(match)
        long_ago = timezone.now() - timedelta(minutes=5)
        await database_sync_to_async(Seat.objects.filter(match=match, number=0).update)(
            last_seen=long_ago, last_active=long_ago, connections=0
        )
        await database_sync_to_async(services.claim_win)(match, 1, match.version)
        await _assert_gone(page, match)
    finally:
        await page.disconnect()


async def test_playing_a_match_out_updates_the_lobby(alice: User, bob: User, carol: User) -> None:
    page, match = await _watching(carol, alice, bob, GIN_DECK)
    try:
        await database_sync_to_async(_alice_goes_gin)(match)
        assert match.status == Match.Status.FINISHED
        await _assert_gone(page, match)
    finally:
        await page.disconnect()


async def test_a_hand_that_scores_updates_the_lobby_list(alice: User, bob: User, carol: User):
    # The same gin in a match to 250 ends the hand, not the match: the list shows the score.
    page, match = await _watching(carol, alice, bob, GIN_DECK, target=250)
    try:
        await database_sync_to_async(_alice_goes_gin)(match)
        matches = (await _regions(page, "lobby-matches"))["lobby-matches"]
        assert f'data-match="{match.public_id}"' in matches
        assert f"<strong>{match.scores[0]}</strong>" in matches and match.scores[0] > 0
    finally:
        await page.disconnect()
