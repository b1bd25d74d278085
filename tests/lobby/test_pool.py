"""Quick pairing ("Play now"): the nearest rating within a window that widens while you wait,
never across a block, not the same opponent twice in a row while others wait; cancel; bad
input refused with nothing changed. The clock is the ``now`` each action is given."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from games.models import Match
from ginsite.lib import refusals
from lobby import services
from lobby.models import Block, PoolEntry
from lobby.pool import pairs as pool_pairs
from lobby.pool import service as pool_service
from lobby.ratings.models import Rating
from tests.lobby.lobby_helpers import HTMX, lobby_matches, online

pytestmark = pytest.mark.django_db

T0 = timezone.now()


def _rate(user: User, rating: float) -> None:
    Rating.objects.create(user=user, preset="standard", rating=rating, rd=80)


def _join(user: User, seconds: float = 0, **kwargs: object) -> PoolEntry:
    return pool_service.join_pool(
        user, "standard", 100, now=T0 + timedelta(seconds=seconds), **kwargs
    )


def _opponents(match: Match) -> set[str]:
    return {seat.user.username for seat in match.seats.all()}


@pytest.fixture
def dave(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_user("dave", password="pw-dave-123")


def test_it_pairs_the_nearest_rating(alice: User, bob: User, carol: User) -> None:
    _rate(alice, 1500)
    _rate(bob, 1700)
    _rate(carol, 1560)
    assert _join(alice).status == "waiting"
    assert _join(bob).status == "waiting"  # 200 away: outside +-100
    paired = _join(carol)
    assert paired.status == "paired"
    assert paired.opponent == alice
    assert _opponents(paired.match) == {"alice", "carol"}
    assert PoolEntry.objects.get(user=bob).status == "waiting"


def test_it_widens_the_window_while_they_wait(alice: User, bob: User) -> None:
    _rate(alice, 1500)
    _rate(bob, 1800)
    _join(alice)
    _join(bob)
    assert pool_pairs.window(T0, T0) == 100
    assert pool_pairs.window(T0, T0 + timedelta(seconds=15)) == 300
    assert pool_pairs.window(T0, T0 + timedelta(seconds=60)) == 500
    assert pool_service.pair_waiting(T0 + timedelta(seconds=14)) == []  # +-287: not yet
    [match] = pool_service.pair_waiting(T0 + timedelta(seconds=15))
    assert _opponents(match) == {"alice", "bob"}
    assert set(PoolEntry.objects.values_list("status", flat=True)) == {"paired"}


def test_it_never_pairs_across_a_block(alice: User, bob: User, carol: User) -> None:
    services.block(alice, bob)
    _join(alice)
    assert _join(bob).status == "waiting"
    assert pool_service.pair_waiting(T0 + timedelta(seconds=60)) == []
    paired = _join(carol, 61)
    assert paired.status == "paired"
    assert paired.opponent == alice  # the one who waited longest


def test_it_does_not_pair_the_same_two_twice_in_a_row_while_others_wait(
    alice: User, bob: User, carol: User
) -> None:
    _join(alice)
    first = _join(bob).match
    Match.objects.filter(pk=first.pk).update(status=Match.Status.FINISHED)
    _rate(carol, 1800)  # out of everyone's window at first
    _join(alice, 100)
    _join(carol, 100)
    assert _join(bob, 100).status == "waiting"  # not alice again: carol waits too
    [match] = pool_service.pair_waiting(T0 + timedelta(seconds=130))
    assert _opponents(match) == {"alice", "carol"}


def test_the_same_two_play_again_when_nobody_else_waits(alice: User, bob: User) -> None:
    _join(alice)
    first = _join(bob).match
    Match.objects.filter(pk=first.pk).update(status=Match.Status.FINISHED)
    _join(alice, 100)
    assert _join(bob, 100).status == "paired"


def test_a_bot_meets_a_human_only_where_the_human_allows_bots(
    alice: User, bob: User, carol: User
) -> None:
    bob.profile.plays_by_bot = True
    bob.profile.save()
    _join(bob)
    assert _join(alice, 1).status == "waiting"
    assert _join(carol, 2, allow_bots=True).opponent == bob


def test_it_cancels_and_joins_again(client: Client, alice: User, bob: User) -> None:
    _join(alice)
    pool_service.leave_pool(alice)
    assert PoolEntry.objects.get().status == "cancelled"
    with pytest.raises(refusals.Conflict, match="You are not waiting for a game."):
        pool_service.leave_pool(alice)
    assert _join(bob).status == "waiting"  # alice is not in the pool any more
    assert _join(alice).status == "paired"


def test_joining_twice_is_refused(alice: User) -> None:
    _join(alice)
    with pytest.raises(refusals.Conflict, match="already waiting"):
        pool_service.join_pool(alice, "classic", 50)
    assert PoolEntry.objects.get().preset == "standard"


def test_a_player_in_a_lobby_match_cannot_join(alice: User, bob: User) -> None:
    _join(alice)
    _join(bob)
    with pytest.raises(refusals.Conflict, match="in a lobby match already"):
        _join(alice)
    assert PoolEntry.objects.filter(status="waiting").count() == 0


@pytest.mark.parametrize(("preset", "target"), [("blitz", "100"), ("standard", "99"), ("", "x")])
def test_it_refuses_bad_rules(client: Client, alice: User, preset: str, target: str) -> None:
    client.force_login(alice)
    response = client.post("/lobby/pool/", {"tile": f"{preset}:{target}"}, **HTMX)
    assert response.status_code == 400
    assert PoolEntry.objects.count() == 0


def test_a_challenge_accepted_takes_a_player_out_of_the_pool(
    alice: User, bob: User, carol: User
) -> None:
    online(alice, bob, carol)
    _join(alice)
    sent = services.challenge(bob, alice, "simple", 50)
    services.accept_challenge(sent, alice)
    assert PoolEntry.objects.get().status == "cancelled"
    assert _join(carol).status == "waiting"


def test_the_lobby_page_shows_the_wait_and_sends_both_to_the_table(
    client: Client, alice: User, bob: User
) -> None:
    online(alice, bob)
    client.force_login(alice)
    response = client.post("/lobby/pool/", {"tile": "classic:150", "rated": "on"})
    assert response.status_code == 302
    html = client.get("/lobby/").content.decode()
    assert "Looking for an opponent: Classic to 150, rated." in html
    assert "Nobody else is waiting for these rules yet" in html
    client.force_login(bob)
    response = client.post("/lobby/pool/", {"tile": "classic:150", "rated": "on"}, **HTMX)
    [match] = lobby_matches()
    assert response.headers["HX-Redirect"] == f"/games/{match.public_id}/"
    assert _opponents(match) == {"alice", "bob"}
    assert match.rated.preset == "classic"


def test_the_wait_says_why(client: Client, alice: User, bob: User) -> None:
    _rate(bob, 2100)  # out of reach even at +-500
    pool_service.join_pool(bob, "standard", 100)
    client.force_login(alice)
    client.post("/lobby/pool/", {"tile": "standard:100"})
    html = client.get("/lobby/").content.decode()
    assert re.search(r"One other player is waiting for these rules, not within ±\d+ of your", html)
    client.post("/lobby/pool/leave")
    assert "Play now" in client.get("/lobby/").content.decode()
    assert not Block.objects.exists()
