"""Following players: the friends list with who is online, "friends online" first in the
lobby, and blocks, which override following both ways."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.models import Match
from ginsite.lib.refusals import NotAllowed, Refused
from lobby import services
from lobby.models import Follow
from lobby.people import friends
from tests.games.live_helpers import lobby_match
from tests.lobby.lobby_helpers import go_quiet, online, signed_in

pytestmark = pytest.mark.django_db


def _friend_names(user: User) -> list[str]:
    return [row["username"] for row in friends.friends(user)]


def test_it_follows_and_unfollows_from_the_player_page(alice: User, bob: User) -> None:
    client = signed_in(Client(), alice)
    page = client.get("/players/bob/").content.decode()
    assert 'action="/players/bob/follow"' in page
    client.post("/players/bob/follow")
    page = client.get("/players/bob/").content.decode()
    assert "You follow bob now." in page and 'action="/players/bob/unfollow"' in page
    assert _friend_names(alice) == ["bob"]
    client.post("/players/bob/unfollow")
    assert _friend_names(alice) == []
    assert not Follow.objects.exists()


def test_following_twice_is_one_follow_and_is_one_way(alice: User, bob: User) -> None:
    services.follow(alice, bob)
    services.follow(alice, bob)
    assert Follow.objects.count() == 1
    assert _friend_names(bob) == []


def test_nobody_follows_themselves(alice: User) -> None:
    with pytest.raises(Refused):
        services.follow(alice, alice)
    assert not Follow.objects.exists()


@pytest.mark.parametrize("blocker", ["alice", "bob"])
def test_a_block_either_way_hides_a_follow(alice: User, bob: User, blocker: str) -> None:
    services.follow(alice, bob)
    online(alice, bob)
    if blocker == "alice":
        services.block(alice, bob)
    else:
        services.block(bob, alice)
    assert _friend_names(alice) == []
    lobby = signed_in(Client(), alice).get("/lobby/").content.decode()
    assert 'data-friend="bob"' not in lobby
    page = signed_in(Client(), alice).get("/players/bob/").content.decode()
    assert "Unfollow bob" not in page


@pytest.mark.parametrize("blocker", ["alice", "bob"])
def test_a_blocked_pair_cannot_follow(alice: User, bob: User, blocker: str) -> None:
    services.block(*((alice, bob) if blocker == "alice" else (bob, alice)))
    with pytest.raises(NotAllowed):
        services.follow(alice, bob)
    response = signed_in(Client(), alice).post("/players/bob/follow", follow=True)
    assert "follow" in response.content.decode().lower()
    assert not Follow.objects.exists()


def test_the_block_of_a_follow_lifted_shows_the_friend_again(alice: User, bob: User) -> None:
    services.follow(alice, bob)
    services.block(bob, alice)
    services.unblock(bob, alice)
    assert _friend_names(alice) == ["bob"]


def test_friends_online_come_first_free_before_busy(
    alice: User, bob: User, carol: User, django_user_model: type[User]
) -> None:
    dave = django_user_model.objects.create_user(username="dave", password="x")
    erin = django_user_model.objects.create_user(username="erin", password="x")
    for other in (bob, carol, dave, erin):
        services.follow(alice, other)
    online(carol, dave, erin)
    lobby_match(dave, erin)  # both busy in a lobby match
    assert Match.objects.filter(kind=Match.Kind.LOBBY).count() == 1
    rows = friends.friends(alice)
    assert [(r["username"], r["online"], r["busy"]) for r in rows] == [
        ("carol", True, False),
        ("dave", True, True),
        ("erin", True, True),
        ("bob", False, False),
    ]


def test_the_lobby_shows_friends_online_first(alice: User, bob: User, carol: User) -> None:
    services.follow(alice, bob)
    services.follow(alice, carol)
    online(alice, carol)
    html = signed_in(Client(), alice).get("/lobby/").content.decode()
    friends_at = html.index('id="lobby-friends"')
    assert friends_at < html.index('id="lobby-challenges"') < html.index('id="lobby-players"')
    region = html[friends_at : html.index("</section>", friends_at)]
    assert region.index('data-friend="carol"') < region.index('data-friend="bob"')
    # One click challenges a friend who is online and free; nobody who is away.
    assert 'name="to" value="carol"' in region and 'name="to" value="bob"' not in region


def test_a_friend_who_leaves_is_shown_away(alice: User, bob: User) -> None:
    services.follow(alice, bob)
    online(alice, bob)
    go_quiet(bob)
    assert [(r["username"], r["online"]) for r in friends.friends(alice)] == [("bob", False)]


def test_the_friends_page_lists_them(alice: User, bob: User) -> None:
    services.follow(alice, bob)
    online(bob)
    html = signed_in(Client(), alice).get("/friends/").content.decode()
    assert 'data-friend="bob"' in html and "online" in html
