"""Fair play on time: any sign of life keeps a player at the table (an API client opens no
table socket), and a lobby match has a move clock, so a player who is here but never moves
cannot stall it for ever either."""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING

import pytest
from django.test import Client
from django.utils import timezone

from games import services
from games.live import connection as live_table
from games.live import presence
from games.models import Match, Seat
from lobby.accounts import tokens
from tests.api.conftest import API, body

from .conftest import ALICE_KNOCKS, BEA_LOOSE, stacked, url
from .live_helpers import lobby_match

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def match(alice: User, bob: User) -> Match:
    return lobby_match(alice, bob, stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "2D"))


def _api(user: User) -> dict[str, str]:
    return {"Authorization": f"Bearer {tokens.create(user, 'bot')[1]}"}


def _claim(client: Client, match: Match, headers: dict[str, str]):  # type: ignore[no-untyped-def]
    match.refresh_from_db()
    return client.post(
        f"{API}/matches/{match.public_id}/claim",
        {"version": match.version},
        content_type="application/json",
        headers=headers,
    )


def _turn_began(match: Match, seconds_ago: float) -> None:
    Match.objects.filter(pk=match.pk).update(
        moved_at=timezone.now() - timedelta(seconds=seconds_ago)
    )
    match.refresh_from_db()


def test_an_api_player_who_just_moved_is_here(match: Match, alice: User, bob: User):
    # bob plays through the API only: no table socket, ever. He moves, then it is his turn
    # again; alice may not claim the win 0.1 s later (she could, before: he counted as away).
    client, alice_h, bob_h = Client(), _api(alice), _api(bob)
    # The match began minutes ago: a seat never seen counted as away since then.
    Match.objects.filter(pk=match.pk).update(created_at=timezone.now() - timedelta(minutes=5))
    match.refresh_from_db()
    services.submit(match, 0, {"type": "pass"}, 0)
    moved = client.post(
        f"{API}/matches/{match.public_id}/actions",
        {"action": {"type": "pass"}, "version": 1},
        content_type="application/json",
        headers=bob_h,
    )
    assert moved.status_code == 200
    services.submit(match, 0, {"type": "draw", "from": "stock"}, 2)
    services.submit(match, 0, {"type": "discard", "card": "2D"}, 3)  # bob to move
    refused = _claim(client, match, alice_h)
    assert (refused.status_code, body(refused)["code"]) == (422, "illegal_move")
    assert match.is_active


def test_an_open_event_stream_keeps_its_player_here(match: Match, bob: User):
    services.submit(match, 0, {"type": "pass"}, 0)  # bob to move, and he was never seen
    seat = Seat.objects.get(match=match, number=1)
    assert not presence.is_connected(seat)
    presence.player_active(bob.pk)  # what his open stream does at each keep-alive
    assert presence.is_connected(Seat.objects.get(match=match, number=1))
    assert not live_table.claimable(match, 0)


def test_an_api_player_reading_the_match_is_here(match: Match, alice: User, bob: User):
    # bob only reads the match through the API (a bot thinking about its move): that is a
    # sign of life too, and alice may not claim the win while he does.
    Match.objects.filter(pk=match.pk).update(created_at=timezone.now() - timedelta(minutes=5))
    match.refresh_from_db()
    services.submit(match, 0, {"type": "pass"}, 0)  # bob to move, and he was never seen
    assert not presence.is_connected(Seat.objects.get(match=match, number=1))
    read = Client().get(f"{API}/matches/{match.public_id}", headers=_api(bob))
    assert read.status_code == 200
    assert presence.is_connected(Seat.objects.get(match=match, number=1))
    refused = _claim(Client(), match, _api(alice))
    assert (refused.status_code, body(refused)["code"]) == (422, "illegal_move")


def test_a_player_who_is_here_but_never_moves_loses_on_the_clock(
    match: Match, alice: User, bob: User
):
    services.submit(match, 0, {"type": "pass"}, 0)  # bob to move
    presence.player_active(bob.pk)  # connected all along
    _turn_began(match, live_table.MOVE_LIMIT_SECONDS - 5)
    assert not live_table.claimable(match, 0)
    _turn_began(match, live_table.MOVE_LIMIT_SECONDS + 1)
    presence.player_active(bob.pk)
    assert live_table.claimable(match, 0)
    live = live_table.live_state(match, 0)
    assert live is not None and live["claim_reason"] == "clock"
    response = _claim(Client(), match, _api(alice))
    assert response.status_code == 200
    assert body(response)["status"] == "timed_out" and body(response)["winner_seat"] == 0


def test_the_clock_shows_in_the_api_and_on_the_page(match: Match, alice: User):
    services.submit(match, 0, {"type": "pass"}, 0)
    match.refresh_from_db()
    detail = body(Client().get(f"{API}/matches/{match.public_id}", headers=_api(alice)))
    deadline = detail["live"]["move_deadline"]
    assert deadline.endswith("Z")
    expected = match.moved_at + timedelta(seconds=live_table.MOVE_LIMIT_SECONDS)
    assert deadline.startswith(expected.strftime("%Y-%m-%dT%H:%M:%S"))
    page = Client()
    page.force_login(alice)
    html = page.get(url(match, "table")).content.decode()
    assert f'<time class="countdown" datetime="{deadline}">' in html
    assert "bob&#x27;s move clock:" in html or "bob's move clock:" in html


def test_friends_and_bea_have_no_clock(alice: User):
    match = services.start_bea_match(alice, "standard", 100, "easy")
    assert live_table.move_deadline(match) is None
