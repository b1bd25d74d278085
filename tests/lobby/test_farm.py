"""The review's farm (issue 39), with its numbers: 35 throw-away accounts that pass rated
play's entry rules each challenge one player, rated, and give the match away. Resigning after
two moves gains the player nothing (each is an abort of the throw-away's); playing the first
hand out and then resigning (a real rated loss each) gains the player 50 points in the day,
the daily allowance for wins against new accounts, where Glicko-2 alone would have given
hundreds; each throw-away loses as Glicko-2 says."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
from django.contrib.auth import get_user_model

from lobby.ratings import glicko
from lobby.ratings.allowance import DAILY_ALLOWANCE
from lobby.ratings.models import Abort, RatedMatch, RatingChange

from .rating_helpers import challenge_match, eligible, play, play_moves, rating, resign

if TYPE_CHECKING:
    from django.contrib.auth.models import User

# Committed as on the site: each commit runs its hooks (the pushes). In one test-long
# transaction they would wait, hundreds of them, and make every later push slower.
pytestmark = pytest.mark.django_db(transaction=True)

THROWAWAYS = 35


@pytest.fixture
def farm(settings: Any) -> list[User]:
    """35 accounts with verified addresses, two days old: they may play rated."""
    # The challenge limits are against floods (10 a minute to one player); the review's farm
    # waited them out, and the test's clock for them does not move: let the farm through.
    settings.CHALLENGE_LIMIT_PER_TARGET = 1000
    users = [
        get_user_model().objects.create_user(username=f"throwaway{n:02}") for n in range(THROWAWAYS)
    ]
    eligible(*users)
    return users


def _glicko(user: User) -> glicko.Glicko:
    row = rating(user)
    return glicko.START if row is None else glicko.Glicko(row.rating, row.rd, row.volatility)


# 70 matches, each move committed with its pushes: 8 s embedded, 42 s on PostgreSQL and Redis on
# an idle machine, and past the suite's 120 s with CI's pass beside another job.
@pytest.mark.timeout(360)
def test_the_reviews_farm_gains_less_than_100_points_in_a_day(alice: User, farm: list[User]):
    # The review's way: challenge, two moves each, resign.
    for throwaway in farm:
        match = challenge_match(throwaway, alice)  # the throw-away in seat 0
        play_moves(match, 2)
        resign(match, 0)
        assert RatedMatch.objects.get(match=match).outcome == "aborted"
    assert rating(alice) is None  # +0: no rated result at all
    assert all(Abort.objects.filter(user=t).count() == 1 for t in farm)

    # The farm adapts: the first hand played out, then a real rated loss.
    expected = glicko.START  # alice, as Glicko-2 and the allowance say, computed here
    unlimited = glicko.START  # alice, had no gain been limited
    for throwaway in farm:
        mine, theirs = _glicko(alice), _glicko(throwaway)
        match = challenge_match(throwaway, alice)
        play(match)
        resign(match, 0)
        assert RatedMatch.objects.get(match=match).outcome == "rated"
        # The throw-away loses as usual.
        assert tuple(_glicko(throwaway)) == pytest.approx(
            tuple(glicko.after_match(theirs, mine, 0.0))
        )
        computed = glicko.after_match(expected, theirs, 1.0)
        gained = min(computed.rating - expected.rating, 1500 + DAILY_ALLOWANCE - expected.rating)
        expected = computed._replace(rating=expected.rating + gained)
        assert tuple(_glicko(alice)) == pytest.approx(tuple(expected))
        unlimited = glicko.after_match(unlimited, theirs, 1.0)

    won = rating(alice)
    assert won.games == THROWAWAYS and won.rating == 1550  # +50 in the day: less than 100
    assert won.rd < 100  # from 350: the deviation fell as Glicko-2 says (checked above)
    assert unlimited.rating > 2000  # what the farm would have made of it
    changes = RatingChange.objects.filter(user=alice)
    assert changes.filter(limited="new_accounts").count() == THROWAWAYS
    # No abort came of the real losses.
    assert Abort.objects.count() == THROWAWAYS
