"""Rated play's entry rules (docs/moderation.md): a verified e-mail address, and an account a
day old or with three finished matches. A new account is told which and when, at every door
into a rated match; of another player one hears only that they cannot."""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING

import pytest
from django.contrib.auth import get_user_model

from games.models import HandRecord, Match, Seat
from lobby.models import PoolEntry, Seek
from lobby.ratings.eligibility import why_not_rated
from lobby.ratings.models import RatedMatch
from tests.api.conftest import Api, body, token_for

from .correspondence_helpers import Clock
from .lobby_doors import DOORS, WAYS, knock
from .rating_helpers import challenge_match, play, play_moves, resign, verified

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db

WHEN = "You can play rated in 14 hours, or after 3 more finished matches."


@pytest.fixture
def newbie(clock: Clock) -> User:
    """A verified account made ten hours ago, with no match played."""
    user = get_user_model().objects.create_user(username="newbie")
    verified(user)
    user.date_joined = clock.now - timedelta(hours=10)
    user.save(update_fields=["date_joined"])
    return user


def test_it_tells_a_new_account_when_it_may_play_rated(newbie: User, clock: Clock):
    assert why_not_rated(newbie.pk) == WHEN
    clock.advance(hours=13, minutes=59, seconds=30)  # rounded up: come back when told
    assert why_not_rated(newbie.pk) == (
        "You can play rated in 1 minute, or after 3 more finished matches."
    )
    clock.advance(seconds=30)
    assert why_not_rated(newbie.pk) is None


def test_an_address_comes_first(clock: Clock):
    user = get_user_model().objects.create_user(username="nomail")
    assert why_not_rated(user.pk) == (
        "Rated play needs a verified e-mail address: add one in Settings."
    )


@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("door", DOORS)
def test_a_new_account_is_refused_rated_play_at_every_door(
    way: str, door: str, newbie: User, alice: User
):
    answer = knock(way, door, newbie, alice)
    assert answer.status_code == 403
    assert WHEN in answer.content.decode()
    if way == "api":
        assert body(answer)["code"] == "rated_not_allowed"
    assert not Match.objects.exists()
    assert not Seek.objects.filter(poster=newbie).exists()
    assert not PoolEntry.objects.filter(user=newbie).exists()


def test_the_api_says_it_before_anyone_knocks(newbie: User, alice: User):
    assert body(Api(token_for(newbie)).get("/me"))["rated_play"] == WHEN
    assert body(Api(token_for(alice)).get("/me"))["rated_play"] is None


def test_a_casual_match_is_open_to_a_new_account(newbie: User, alice: User):
    answer = knock("api", "challenge", newbie, alice, rated=False)
    assert answer.status_code == 201


def test_the_other_player_hears_only_that_a_new_account_cannot(newbie: User, alice: User):
    answer = knock("api", "challenge", alice, newbie)
    assert answer.status_code == 403 and body(answer)["code"] == "rated_not_allowed"
    assert body(answer)["message"] == (
        "newbie cannot play rated matches right now. Offer a casual one instead."
    )
    page = knock("htmx", "challenge", alice, newbie)
    assert page.status_code == 403 and "Offer a casual one instead." in page.content.decode()
    assert "14 hours" not in page.content.decode()


def _ended_with_a_hand(user: User, kind: str, seat_kind: str = Seat.Kind.PLAYER) -> None:
    """A match of ``kind`` whose first hand was played out before ``user`` resigned it."""
    match = Match.objects.create(kind=kind, rules={"name": "standard"}, status="resigned")
    Seat.objects.create(match=match, number=0, kind=seat_kind, user=user)
    Seat.objects.create(match=match, number=1, kind=Seat.Kind.BEA)
    HandRecord.objects.create(match=match, hand_number=1, kind="knock")


def test_three_finished_matches_open_rated_play_before_the_day_is_over(
    newbie: User, bob: User, settings
):
    settings.CHALLENGE_LIMIT_PER_SENDER = 100  # five matches in one frozen minute
    casual = challenge_match(newbie, bob, rated=False)
    play(casual)
    resign(casual, 0)  # after the first hand: a match played
    assert why_not_rated(newbie.pk) == (
        "You can play rated in 14 hours, or after 2 more finished matches."
    )
    # What does not count: a match ended in its first hand, a lesson, a pass-and-play match.
    early = challenge_match(newbie, bob, rated=False)
    play_moves(early, 3)
    resign(early, 1)
    _ended_with_a_hand(newbie, Match.Kind.LESSON)
    _ended_with_a_hand(newbie, Match.Kind.LOCAL, Seat.Kind.LOCAL)
    assert "after 2 more finished matches" in (why_not_rated(newbie.pk) or "")
    _ended_with_a_hand(newbie, Match.Kind.BEA)  # a hand against Bea counts
    assert why_not_rated(newbie.pk) == (
        "You can play rated in 14 hours, or after 1 more finished match."
    )
    second = challenge_match(newbie, bob, rated=False)
    play(second)
    resign(second, 1)
    assert why_not_rated(newbie.pk) is None
    rated = challenge_match(newbie, bob)
    assert RatedMatch.objects.filter(match=rated).exists()


def test_the_refusal_is_in_german_too(newbie: User, alice: User):
    answer = knock("page", "seek", newbie, alice, language="de")
    assert answer.status_code == 403
    assert (
        "Gewertet spielen kannst du in 14 Stunden oder nach 3 weiteren beendeten Partien."
        in answer.content.decode()
    )
