"""Correspondence (issue 26, part 3): the player to move has 1, 3 or 7 days from the start of
their turn; being away is normal; once the days run out the other may claim the win, through
the same claim as a live match (the table's button, the API)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from django.test import Client

from games import services
from games.live import connection as live_table
from games.models import Match
from games.services import IllegalMove
from lobby.accounts import tokens
from lobby.ratings.models import RatedMatch
from lobby.ratings.reads import ratings_of
from tests.api.conftest import API

from .correspondence_helpers import Clock, correspondence_match, to_act
from .rating_helpers import next_hand, play

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db


def _client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _claim_over_api(match: Match, user: User) -> tuple[int, dict]:  # type: ignore[type-arg]
    match.refresh_from_db()
    answer = Client().post(
        f"{API}/matches/{match.public_id}/claim",
        {"version": match.version},
        content_type="application/json",
        headers={"Authorization": f"Bearer {tokens.create(user, 'app')[1]}"},
    )
    return answer.status_code, answer.json()


def test_it_gives_the_player_to_move_their_days_however_long_they_are_away(
    clock: Clock, alice: User, bob: User
) -> None:
    match = correspondence_match(alice, bob, days=1)
    # alice has no page open at all, for almost a whole day: away is no reason to claim.
    clock.advance(hours=23, minutes=59)
    assert not live_table.claimable(match, 1)
    status, body = _claim_over_api(match, bob)
    assert (status, body["code"]) == (422, "illegal_move")
    assert "time to move has run out" in body["message"]
    match.refresh_from_db()
    assert match.is_active


def test_the_other_may_claim_once_the_days_ran_out_and_the_player_to_move_may_not(
    clock: Clock, alice: User, bob: User
) -> None:
    match = correspondence_match(alice, bob, days=1)
    clock.advance(days=1, minutes=1)
    assert live_table.claimable(match, 1)
    # The player whose time ran out cannot claim against the one who is waiting.
    assert not live_table.claimable(match, 0)
    with pytest.raises(IllegalMove):
        services.claim_win(match, 0, match.version)
    # The table offers bob the claim, saying why; alice's table does not.
    page = _client(bob).get(f"/games/{match.public_id}/").content.decode()
    assert "let their time to move run out" in page and "Claim the win" in page
    assert "Claim the win" not in _client(alice).get(f"/games/{match.public_id}/").content.decode()
    status, body = _claim_over_api(match, bob)
    assert status == 200
    assert (body["status"], body["winner_seat"]) == ("timed_out", 1)


def test_a_draw_and_the_discard_after_it_are_one_turn(clock: Clock, alice: User, bob: User) -> None:
    match = correspondence_match(alice, bob, days=1)
    clock.advance(hours=20)
    services.submit(match, 0, {"type": "pass"}, match.version)  # alice passes the upcard
    assert to_act(match) == 1  # bob's turn begins now, with a whole day
    clock.advance(hours=20)
    assert not live_table.claimable(match, 0)
    services.submit(match, 1, {"type": "pass"}, match.version)  # bob passes too
    assert to_act(match) == 0  # alice draws first from the stock: her turn begins
    clock.advance(hours=20)
    services.submit(match, 0, {"type": "draw", "from": "stock"}, match.version)
    assert to_act(match) == 0  # the draw did not start her day again
    clock.advance(hours=4, minutes=1)
    assert live_table.claimable(match, 1)


def test_the_table_shows_the_days_not_a_live_clock(clock: Clock, alice: User, bob: User) -> None:
    match = correspondence_match(alice, bob, days=3)
    clock.advance(hours=19)
    theirs = _client(bob).get(f"/games/{match.public_id}/").content.decode()
    assert "alice must move by" in theirs and "(2 days 5 hours left)" in theirs
    # alice has been gone 19 hours: nothing presses her.
    assert "alice: not at the table" in theirs and ": away" not in theirs
    mine = _client(alice).get(f"/games/{match.public_id}/").content.decode()
    assert "Your move: 2 days 5 hours left, until" in mine
    # The status line, the first thing a phone shows, says it too.
    status = mine[mine.index('id="status"') :]
    assert "Correspondence: 2 days 5 hours left." in status[: status.index("</section>")]
    assert "3 days per move" in mine
    assert "move clock" not in mine and 'class="countdown"' not in mine
    bob.profile.language = "de"
    bob.profile.save()
    german = _client(bob).get(f"/games/{match.public_id}/", HTTP_ACCEPT_LANGUAGE="de")
    text = german.content.decode()
    assert "alice muss bis" in text and "ziehen (2 Tage 5 Stunden übrig)" in text
    assert "Fernpartie: 2 Tage 5 Stunden übrig." in text


def test_a_correspondence_win_on_time_is_rated(clock: Clock, alice: User, bob: User) -> None:
    match = correspondence_match(alice, bob, days=3, rated=True)
    play(match)  # the first hand is over: not aborted
    next_hand(match)
    waiting = 1 - to_act(match)  # type: ignore[operator]
    clock.advance(days=3, seconds=1)
    services.claim_win(match, waiting, match.version)
    assert RatedMatch.objects.get(match=match).outcome == "rated"
    winner, loser = (alice, bob) if waiting == 0 else (bob, alice)
    assert ratings_of(winner)["standard"].rating > 1500 > ratings_of(loser)["standard"].rating


def test_a_correspondence_match_claimed_before_two_moves_each_is_aborted(
    clock: Clock, alice: User, bob: User
) -> None:
    # As for a live match: an opponent who never played a move gives no rating.
    match = correspondence_match(alice, bob, days=1, rated=True)
    clock.advance(days=1, seconds=1)
    services.claim_win(match, 1, match.version)
    assert RatedMatch.objects.get(match=match).outcome == "aborted"
    assert ratings_of(bob)["standard"].games == 0
