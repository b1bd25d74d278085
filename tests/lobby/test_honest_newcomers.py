"""Two honest new players (issue 39): each meets rated play's entry rules (dora's account is
two days old; emil's is new, and he first finishes three casual matches), then plays ten
rated matches to their end against established players. Their ratings move exactly as
Glicko-2 says, computed here apart from the site; their deviations fall; a win raises them by
Glicko-2's full amount, never limited."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games.models import Match
from lobby.ratings import glicko
from lobby.ratings.allowance import DAILY_ALLOWANCE
from lobby.ratings.eligibility import why_not_rated
from lobby.ratings.models import Rating, RatingChange

from .rating_helpers import challenge_match, eligible, play_out, rating, verified

# Committed as on the site (see test_farm.py): some 300 moves.
pytestmark = pytest.mark.django_db(transaction=True)

# 1 the newcomer wins, 0 the established player does; opponents in turn.
RESULTS = {"dora": (1, 0, 1, 1, 0, 1, 0, 1, 1, 0), "emil": (0, 1, 1, 0, 1, 1, 1, 0, 0, 1)}
REGULARS = (1450.0, 1500.0, 1550.0, 1600.0, 1650.0)


def _user(name: str, days_old: float) -> Any:
    user = get_user_model().objects.create_user(username=name)
    user.date_joined = timezone.now() - timedelta(days=days_old)
    user.save(update_fields=["date_joined"])
    return user


@pytest.fixture
def regulars() -> list[Any]:
    """Established players: two months old, 40 rated results, a deviation of 60."""
    players = [_user(f"regular{n}", 60) for n in range(len(REGULARS))]
    verified(*players)
    for user, value in zip(players, REGULARS, strict=True):
        Rating.objects.create(user=user, preset="standard", rating=value, rd=60, games=40)
    return players


def _finish_three_casual(emil: Any, regular: Any) -> None:
    for _ in range(3):
        assert "more finished" in (why_not_rated(emil.pk) or "")
        match = challenge_match(emil, regular, rated=False, target=50)
        play_out(match, winner=1)
    assert why_not_rated(emil.pk) is None


def _state(user: Any) -> glicko.Glicko:
    row = rating(user)
    return glicko.START if row is None else glicko.Glicko(row.rating, row.rd, row.volatility)


def _ten_rated(newcomer: Any, regulars: list[Any], results: tuple[int, ...]) -> None:
    """The newcomer (seat 0) plays ten rated matches to 50, each to its end; their rating
    checked against Glicko-2 after each."""
    expected = glicko.START
    deviations: list[float] = []
    gains: list[int] = []
    for n, score in enumerate(results):
        opponent = regulars[n % len(regulars)]
        theirs = _state(opponent)
        match = challenge_match(newcomer, opponent, target=50)
        play_out(match, winner=0 if score else 1)
        match.refresh_from_db()
        assert (match.status, match.winner_seat) == (Match.Status.FINISHED, 0 if score else 1)
        expected = glicko.after_match(expected, theirs, float(score))
        assert tuple(_state(newcomer)) == pytest.approx(tuple(expected))
        change = RatingChange.objects.get(match=match, user=newcomer)
        assert change.limited == "" and change.after == change.glicko_after
        deviations.append(change.rd_after)
        gains.extend([change.delta] if score else [])
    # Each match told more: from 350 to a third of it in ten.
    assert deviations == sorted(deviations, reverse=True)
    assert deviations[-1] < glicko.START_RD / 3 and rating(newcomer).games == 10
    # Every win's gain was Glicko-2's whole (checked above), the first one more than a day's
    # allowance against new accounts would have let through.
    assert all(gain > 0 for gain in gains) and gains[0] > DAILY_ALLOWANCE


# 23 matches played to their end, each move committed: 11 s on PostgreSQL and Redis on an idle
# machine, and past the suite's 120 s with CI's pass beside another job.
@pytest.mark.timeout(360)
def test_two_honest_new_players_get_ratings_that_move_normally(regulars: list[Any], settings):
    # Thirteen challenges in the tests' one frozen minute of the challenge limits.
    settings.CHALLENGE_LIMIT_PER_SENDER = 100
    dora = _user("dora", 2)
    emil = _user("emil", 0)
    eligible(dora)
    verified(emil)
    _finish_three_casual(emil, regulars[0])
    _ten_rated(dora, regulars, RESULTS["dora"])
    _ten_rated(emil, regulars, RESULTS["emil"])
    # Their opponents' gains against them are what the allowance lets through: dora and emil
    # are new accounts.
    for regular in regulars:
        wins = RatingChange.objects.filter(user=regular, score=1)
        gained = sum(c.after - c.before for c in wins)
        assert gained <= DAILY_ALLOWANCE
        assert all(c.new_opponent for c in wins)
