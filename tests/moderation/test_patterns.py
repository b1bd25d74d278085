"""Suspicious patterns, found on demand (the moderators' button) and nightly (the command):
many rated wins against new accounts, wins by resignation within a few moves, many aborts;
each row links to the player's evidence. And the command forgets old sign-up addresses."""

from __future__ import annotations

from datetime import timedelta
from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.utils import timezone

from games.models import Match
from lobby.moderation import patterns
from lobby.moderation.models import SignupAddress, Suspicion
from lobby.ratings.models import Abort, RatedMatch, RatingChange
from tests.lobby.rating_helpers import challenge_match, next_hand, play, play_moves, resign
from tests.moderation.helpers import signed_in

pytestmark = pytest.mark.django_db


def _accounts(
    user_model: type[User], count: int, *, days_old: float = 1, name: str = "throwaway"
) -> list[User]:
    from tests.conftest import _make_user

    made = [_make_user(user_model, f"{name}{n}") for n in range(count)]
    joined = timezone.now() - timedelta(days=days_old)
    User.objects.filter(pk__in=[u.pk for u in made]).update(date_joined=joined)
    return made


def _win(winner: User, loser: User) -> None:
    match = Match.objects.create(kind=Match.Kind.LOBBY, rules={"name": "standard"})
    RatingChange.objects.create(
        user=winner,
        opponent=loser,
        match=match,
        preset="standard",
        score=1.0,
        before=1500,
        after=1520,
        rd_after=300,
    )


def _found(pattern: str) -> dict[str, int]:
    return {s.user.username: s.count for s in Suspicion.objects.filter(pattern=pattern)}


def test_it_finds_many_rated_wins_against_new_accounts(
    django_user_model: type[User], alice: User, bob: User
) -> None:
    for loser in _accounts(django_user_model, patterns.NEW_ACCOUNT_WINS):
        _win(alice, loser)
    User.objects.filter(pk=alice.pk).update(date_joined=timezone.now() - timedelta(days=400))
    for loser in _accounts(django_user_model, 9, days_old=60, name="old"):
        _win(bob, loser)  # old accounts: not this pattern
    for loser in User.objects.filter(username__startswith="throwaway")[:4]:
        _win(bob, loser)
    patterns.find()
    assert _found("new_account_wins") == {"alice": patterns.NEW_ACCOUNT_WINS}


def test_it_finds_wins_by_resignation_within_a_few_moves(
    alice: User, bob: User, carol: User
) -> None:
    for _ in range(patterns.QUICK_RESIGNATIONS):
        thrown = challenge_match(alice, bob)
        play(thrown)  # the first hand played out (rated from then on)
        next_hand(thrown)
        play_moves(thrown, 1)  # one move each in the second hand, then bob resigns
        resign(thrown, 1)
    assert RatedMatch.objects.filter(outcome="rated").count() == patterns.QUICK_RESIGNATIONS
    fought = challenge_match(alice, carol)
    play(fought)
    next_hand(fought)
    play_moves(fought, 4)  # carol fought four moves of the second hand before resigning
    resign(fought, 1)
    patterns.find()
    assert _found("quick_resignations") == {"alice": patterns.QUICK_RESIGNATIONS}
    row = Suspicion.objects.get(pattern="quick_resignations")
    assert row.details["accounts"] == ["bob"] and len(row.details["matches"]) == 3


def test_it_finds_many_aborts(alice: User, bob: User) -> None:
    for day in range(patterns.MANY_ABORTS):
        aborted = challenge_match(alice, bob)
        resign(aborted, 0)  # before a move: aborted, alice's abort
        # One a day, as a patient dodger would, so that no wait stops the next.
        Abort.objects.filter(match=aborted).update(
            created_at=timezone.now() - timedelta(days=day + 1)
        )
    assert RatedMatch.objects.filter(outcome="aborted").count() == patterns.MANY_ABORTS
    patterns.find()
    assert _found("many_aborts") == {"alice": patterns.MANY_ABORTS}


def test_a_run_replaces_the_last(django_user_model: type[User], alice: User) -> None:
    for loser in _accounts(django_user_model, patterns.NEW_ACCOUNT_WINS):
        _win(alice, loser)
    patterns.find()
    RatingChange.objects.update(created_at=timezone.now() - timedelta(days=8))
    patterns.find()
    assert not Suspicion.objects.exists()


def test_the_button_finds_them_and_each_row_links_the_evidence(
    moderator: User, django_user_model: type[User], alice: User
) -> None:
    for loser in _accounts(django_user_model, patterns.NEW_ACCOUNT_WINS):
        _win(alice, loser)
    client = signed_in(moderator)
    assert "Not looked for yet." in client.get("/moderation/").content.decode()
    page = client.post("/moderation/patterns", follow=True).content.decode()
    assert "Suspicious patterns found: 1." in page
    row = page[page.index('data-pattern="new_account_wins"') :]
    assert 'href="/moderation/players/alice/#recent"' in row[: row.index("</tr>")]
    assert "throwaway0" in row[: row.index("</tr>")]


def test_the_nightly_command_finds_them_and_forgets_old_addresses(
    django_user_model: type[User], alice: User, bob: User
) -> None:
    for loser in _accounts(django_user_model, patterns.NEW_ACCOUNT_WINS):
        _win(alice, loser)
    SignupAddress.objects.create(user=alice, address="192.0.2.1")
    SignupAddress.objects.create(user=bob, address="192.0.2.2")
    SignupAddress.objects.filter(user=alice).update(created_at=timezone.now() - timedelta(days=91))
    out = StringIO()
    call_command("find_suspicious", stdout=out)
    assert "1 suspicious rows found; 1 sign-up addresses forgotten" in out.getvalue()
    assert _found("new_account_wins") == {"alice": 5}
    assert list(SignupAddress.objects.values_list("user__username", flat=True)) == ["bob"]
