"""Closing an account for rating abuse voids its rated results and gives its victims the points
they lost to it in the last 7 days back (at most 150 a preset, never past the highest rating
they had before those losses), as a refund in their rating history; the closed account's
ratings start over (given back if the closure is lifted); the leaderboards change at once."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from games.models import Match
from lobby.moderation.models import RatingRefund
from lobby.moderation.sanctions import actions
from lobby.ratings.models import Rating, RatingChange
from lobby.ratings.reads import leaders, ratings_of
from tests.moderation.helpers import signed_in

pytestmark = pytest.mark.django_db


def _lost(victim: User, to: User, ratings: list[float], days_ago: float = 1) -> None:
    """``victim`` lost rated matches to ``to``, going through ``ratings`` (1500, 1480, ...),
    and now stands at the last; ``to`` gained as much."""
    for before, after in zip(ratings, ratings[1:], strict=False):
        match = Match.objects.create(kind=Match.Kind.LOBBY, rules={"name": "standard"})
        for user, other, score, sign in ((victim, to, 0.0, 1), (to, victim, 1.0, -1)):
            change = RatingChange.objects.create(
                user=user,
                opponent=other,
                match=match,
                preset="standard",
                score=score,
                before=1500 if sign < 0 else before,
                after=1500 + (before - after) if sign < 0 else after,
                rd_after=90,
            )
            RatingChange.objects.filter(pk=change.pk).update(
                created_at=timezone.now() - timedelta(days=days_ago)
            )
    Rating.objects.update_or_create(
        user=victim, preset="standard", defaults={"rating": ratings[-1], "rd": 90, "games": 20}
    )


def _close(moderator: User, user: User, *, refund: bool = True) -> Any:
    return actions.act(moderator, user, "closure", "rating_abuse", "a farm", refund=refund)


def _rating(user: User) -> int:
    return ratings_of(user)["standard"].rounded


def test_victims_get_back_what_they_lost_to_the_closed_account(
    moderator: User, alice: User, bob: User, carol: User
) -> None:
    Rating.objects.create(user=alice, preset="standard", rating=1900, rd=60, games=40)
    _lost(bob, alice, [1500, 1480, 1465, 1450])  # lost 50
    _lost(carol, alice, [1700, 1600, 1500])  # lost 200: at most 150 back
    _close(moderator, alice)
    assert (_rating(bob), _rating(carol)) == (1500, 1650)
    refunds = {r.user.username: r.points for r in RatingRefund.objects.all()}
    assert refunds == {"bob": 50, "carol": 150}


def test_a_victim_who_climbed_past_it_since_gets_nothing(
    moderator: User, alice: User, bob: User, carol: User
) -> None:
    _lost(bob, alice, [1500, 1480])
    Rating.objects.filter(user=bob).update(rating=1600)  # won plenty since
    _lost(carol, alice, [1500, 1480])
    Rating.objects.filter(user=carol).update(rating=1490)  # half-way back: half refunded
    _close(moderator, alice)
    assert (_rating(bob), _rating(carol)) == (1600, 1500)


def test_only_the_last_seven_days_and_only_open_accounts(
    moderator: User, django_user_model: type[User], alice: User, bob: User, carol: User
) -> None:
    _lost(bob, alice, [1500, 1480], days_ago=8)
    _lost(carol, alice, [1500, 1480])
    User.objects.filter(pk=carol.pk).update(is_active=False)
    _close(moderator, alice)
    assert _rating(bob) == 1480
    assert not RatingRefund.objects.exists()


def test_a_closure_for_another_reason_refunds_nothing(
    moderator: User, alice: User, bob: User
) -> None:
    _lost(bob, alice, [1500, 1480])
    _close(moderator, alice, refund=False)
    assert _rating(bob) == 1480 and not RatingRefund.objects.exists()


def test_the_refund_is_in_the_victim_s_rating_history(
    moderator: User, alice: User, bob: User
) -> None:
    _lost(bob, alice, [1500, 1470])
    _close(moderator, alice)
    history = signed_in(bob).get("/api/v1/players/bob/ratings").json()["ratings"][0]["history"]
    assert [p["kind"] for p in history] == ["result", "refund"]
    refund = history[-1]
    assert (refund["change"], refund["rating"], refund["score"], refund["match"]) == (
        30,
        1500,
        None,
        None,
    )
    assert refund["opponent"] == "alice"
    html = signed_in(bob).get("/players/bob/").content.decode()
    assert "Refund +30 (Standard," in html
    bob.profile.language = "de"
    bob.profile.save()
    client = Client()
    client.force_login(bob)
    assert (
        "Erstattung +30 (Standard,"
        in client.get("/players/bob/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    )


def test_the_closed_account_s_ratings_start_over_until_the_closure_is_lifted(
    moderator: User, alice: User, bob: User
) -> None:
    Rating.objects.create(user=alice, preset="standard", rating=2100, rd=60, games=40)
    _lost(bob, alice, [1500, 1480])
    closure = _close(moderator, alice)
    assert ratings_of(alice)["standard"].display == "1500?"
    actions.lift(moderator, closure.pk, "it was his brother")
    alice.refresh_from_db()
    shown = ratings_of(alice)["standard"]
    assert alice.is_active and (shown.rounded, shown.games) == (2100, 40)
    assert _rating(bob) == 1500  # the refund stays: bob did nothing wrong


def _regular(user: User, rating: float, matches: list[Match]) -> None:
    """An established player with ten rated results this month: on the leaderboard."""
    Rating.objects.update_or_create(
        user=user, preset="standard", defaults={"rating": rating, "rd": 80, "games": 10}
    )
    for match in matches:
        RatingChange.objects.create(
            user=user,
            match=match,
            preset="standard",
            score=1,
            before=rating,
            after=rating,
            rd_after=80,
        )


def test_the_leaderboard_drops_the_closed_account_at_once(
    moderator: User, alice: User, bob: User, django_capture_on_commit_callbacks: Any
) -> None:
    matches = [
        Match.objects.create(kind=Match.Kind.LOBBY, rules={"name": "standard"}) for _ in range(10)
    ]
    _regular(alice, 2300, matches)
    _regular(bob, 1800, matches)
    assert [row.username for row in leaders("standard")] == ["alice", "bob"]  # cached now
    with django_capture_on_commit_callbacks(execute=True):
        _close(moderator, alice)
    page = signed_in(bob).get("/leaderboards/standard/").content.decode()
    assert "/players/bob/" in page and "/players/alice/" not in page
