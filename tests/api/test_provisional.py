"""Provisional is decided on the deviation before rounding, and said beside every rating the
API shows: a player's ratings, each result in their history, the leaderboards."""

from __future__ import annotations

import pytest

from lobby.ratings.models import Rating, RatingChange
from tests.lobby.test_leaderboards import _regular, matches  # noqa: F401 (a fixture)

from .conftest import Api, body

pytestmark = pytest.mark.django_db


def _standard(api: Api, username: str) -> dict:  # type: ignore[type-arg]
    ratings = body(api.get(f"/players/{username}/ratings"))["ratings"]
    return next(r for r in ratings if r["preset"] == "standard")


def test_two_deviations_published_as_110_tell_provisional_apart(alice, bob, alice_api: Api):
    Rating.objects.create(user=alice, preset="standard", rating=1600, rd=109.6, games=12)
    Rating.objects.create(user=bob, preset="standard", rating=1600, rd=110.2, games=12)
    established, provisional = _standard(alice_api, "alice"), _standard(alice_api, "bob")
    assert established["rd"] == provisional["rd"] == 110
    assert (established["provisional"], established["display"]) == (False, "1600")
    assert (provisional["provisional"], provisional["display"]) == (True, "1600?")


def test_each_result_in_the_history_says_provisional(matches, alice_api: Api):  # noqa: F811
    dora = _regular("dora", 1620, matches, rd=109.6)
    RatingChange.objects.filter(user=dora).update(rd_after=109.6)
    RatingChange.objects.filter(user=dora, match=matches[0]).update(rd_after=150)
    history = _standard(alice_api, "dora")["history"]
    assert [p["provisional"] for p in history].count(True) == 1
    assert {p["rd"] for p in history} == {110, 150}


def test_the_leaderboard_says_provisional_and_display(matches, alice_api: Api):  # noqa: F811
    _regular("dora", 1620, matches, rd=109.6)
    [leader] = body(alice_api.get("/leaderboards/standard"))["players"]
    assert leader["username"] == "dora"
    assert (leader["rd"], leader["provisional"], leader["display"]) == (110, False, "1620")
