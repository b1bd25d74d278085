"""Finding players and following them through the API: the search (look-alike letters folded,
bad searches refused), the friends list, follow and unfollow, and the public record on a
player's profile."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from games import services
from games.models import Match, Seat
from lobby import services as lobby_services
from lobby.models import Follow
from tests.lobby.lobby_helpers import online

from .conftest import Api, body

pytestmark = pytest.mark.django_db


def test_it_finds_alice_with_a_cyrillic_a(alice_api: Api, bob_api: Api, alice, bob) -> None:
    online(alice)
    response = bob_api.get("/players", q="\u0430LI")
    assert response.status_code == 200
    assert body(response) == [{"username": "alice", "display_name": "alice", "online": True}]


@pytest.mark.parametrize("q", ["a", "a" * 10_000, "", "  ", " a ", "a" * 25])
def test_a_search_outside_the_schema_s_rule_is_refused(bob_api: Api, alice, q: str) -> None:
    response = bob_api.get("/players", q=q)
    assert response.status_code == 400
    assert body(response)["code"] == "malformed"
    assert body(response)["errors"][0]["loc"][-1] == "q"


@pytest.mark.parametrize("q", ["a\u0301", "\ta", " a\u3000 "])
def test_a_search_the_schema_allows_that_no_name_can_start_with_finds_nobody(
    bob_api: Api, alice, q: str
) -> None:
    # Normalised, each is one character: not refused (the schema allows it), and it lists
    # nobody rather than everyone whose name starts with that letter.
    response = bob_api.get("/players", q=q)
    assert response.status_code == 200 and body(response) == []


def test_a_search_needs_its_query(bob_api: Api) -> None:
    assert bob_api.get("/players").status_code == 400


def test_follow_friends_and_unfollow(alice_api: Api, alice, bob, carol) -> None:
    online(bob)
    assert body(alice_api.post("/players/carol/follow")) == {
        "username": "carol",
        "following": True,
    }
    alice_api.post("/players/bob/follow")
    friends = body(alice_api.get("/me/friends"))
    assert [(f["username"], f["online"], f["busy"]) for f in friends] == [
        ("bob", True, False),
        ("carol", False, False),
    ]
    response = alice_api.client.delete(
        "/api/v1/players/bob/follow", headers={"Authorization": f"Bearer {alice_api.token}"}
    )
    assert body(response) == {"username": "bob", "following": False}
    assert [f["username"] for f in body(alice_api.get("/me/friends"))] == ["carol"]


def test_a_blocked_pair_cannot_follow(alice_api: Api, alice, bob) -> None:
    lobby_services.block(bob, alice)
    response = alice_api.post("/players/bob/follow")
    assert response.status_code == 403
    assert body(response)["code"] == "not_allowed"
    assert not Follow.objects.exists()


def test_the_profile_has_the_record_and_head_to_head(alice_api: Api, alice, bob) -> None:
    match = services.create_match(
        Match.Kind.LOBBY,
        services.ruleset("classic", 100),
        (
            services.SeatSpec(Seat.Kind.PLAYER, user=alice),
            services.SeatSpec(Seat.Kind.PLAYER, user=bob),
        ),
    )
    services.resign(match, 1, match.version)  # bob resigns: alice won
    lobby_services.follow(alice, bob)
    profile = body(alice_api.get("/players/bob"))
    assert {r["preset"]: (r["won"], r["lost"]) for r in profile["record"]} == {
        "standard": (0, 0),
        "classic": (0, 1),
        "simple": (0, 0),
    }
    assert profile["head_to_head"] == {"won": 1, "lost": 0}
    assert profile["following"] is True
    [recent] = profile["recent_matches"]
    assert (recent["id"], recent["result"], recent["rules"]) == (match.public_id, "lost", "classic")
    assert body(alice_api.get("/players/alice"))["head_to_head"] is None


def test_every_new_endpoint_is_in_the_schema(alice_api: Api) -> None:
    paths = body(alice_api.get("/openapi.json"))["paths"]
    assert "get" in paths["/api/v1/players"]
    assert "get" in paths["/api/v1/me/friends"]
    assert {"post", "delete"} <= set(paths["/api/v1/players/{username}/follow"])
    assert "post" in paths["/api/v1/matches/{match_id}/messages"]
    assert "post" in paths["/api/v1/matches/{match_id}/messages/mute"]


def test_a_user_not_found_is_404(alice_api: Api) -> None:
    assert alice_api.post("/players/nobody/follow").status_code == 404
    assert not User.objects.filter(username="nobody").exists()
