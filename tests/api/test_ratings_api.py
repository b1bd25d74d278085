"""Ratings through the API: rated challenges and seeks, a player's ratings with their
history, the leaderboards; all in the OpenAPI schema."""

from __future__ import annotations

import pytest

from lobby.ratings.models import RatedMatch
from tests.lobby.lobby_helpers import online
from tests.lobby.rating_helpers import challenge_match, play, resign

from .conftest import Api, body

pytestmark = pytest.mark.django_db


def test_a_challenge_says_rated_and_its_match_is_rated(alice, bob, alice_api: Api, bob_api: Api):
    online(alice, bob)
    made = alice_api.post("/challenges", {"to": "bob", "preset": "simple", "rated": True})
    assert made.status_code == 201 and body(made)["rated"] is True
    started = bob_api.post(f"/challenges/{body(made)['id']}/accept")
    assert started.status_code == 201 and body(started)["challenge"]["rated"] is True
    assert RatedMatch.objects.get(match__public_id=body(started)["match"]).preset == "simple"


def test_a_challenge_is_casual_unless_it_says_rated(alice, bob, alice_api: Api):
    online(alice, bob)
    made = alice_api.post("/challenges", {"to": "bob"})
    assert body(made)["rated"] is False


def test_a_seek_says_rated(alice, alice_api: Api):
    made = alice_api.post("/seeks", {"preset": "classic", "target": 50, "rated": True})
    assert made.status_code == 201 and body(made)["rated"] is True
    assert body(alice_api.get("/seeks"))[0]["rated"] is True


def test_a_seek_with_a_rated_that_is_no_choice_is_refused(alice, alice_api: Api):
    made = alice_api.post("/seeks", {"preset": "classic", "rated": "perhaps"})
    assert made.status_code == 400
    assert body(alice_api.get("/seeks")) == []


def test_a_players_ratings_and_history(alice, bob, alice_api: Api):
    match = challenge_match(alice, bob)
    play(match)
    resign(match, 1)
    got = body(alice_api.get("/players/bob/ratings"))
    assert got["username"] == "bob"
    by_preset = {r["preset"]: r for r in got["ratings"]}
    assert list(by_preset) == ["standard", "classic", "simple"]
    standard = by_preset["standard"]
    assert standard["rating"] < 1500 and standard["provisional"] and standard["games"] == 1
    assert standard["display"] == f"{standard['rating']}?"
    [point] = standard["history"]
    assert point["match"] == match.public_id and point["opponent"] == "alice"
    assert point["change"] == standard["rating"] - 1500 and point["score"] == 0
    assert by_preset["classic"] == {
        "preset": "classic",
        "rating": 1500,
        "rd": 350,
        "provisional": True,
        "display": "1500?",
        "games": 0,
        "history": [],
    }
    mine = body(alice_api.get("/me/ratings"))
    assert mine["username"] == "alice" and mine["ratings"][0]["rating"] > 1500


def test_an_unknown_player_has_no_ratings(alice_api: Api):
    response = alice_api.get("/players/nobody/ratings")
    assert response.status_code == 404 and "no player" in body(response)["message"]


def test_a_leaderboard_of_an_unknown_preset_is_refused(alice_api: Api):
    response = alice_api.get("/leaderboards/chess")
    assert response.status_code == 400 and "preset" in body(response)["message"]


def test_ratings_need_a_signed_in_reader(anonymous_api: Api):
    assert anonymous_api.get("/players/alice/ratings").status_code == 401
    assert anonymous_api.get("/leaderboards/standard").status_code == 401


def test_the_schema_has_the_rating_endpoints_and_fields(alice_api: Api):
    schema = body(alice_api.get("/openapi.json"))
    for path in ("/me/ratings", "/players/{username}/ratings", "/leaderboards/{preset}"):
        assert "get" in schema["paths"]["/api/v1" + path], path
    components = schema["components"]["schemas"]
    for name in ("ChallengeIn", "ChallengeOut", "SeekIn", "SeekOut"):
        assert components[name]["properties"]["rated"]["type"] == "boolean", name
    assert "110" in components["PresetRating"]["properties"]["provisional"]["description"]
    assert {"rank", "rating", "recent"} <= set(components["Leader"]["properties"])
    board = schema["paths"]["/api/v1/leaderboards/{preset}"]["get"]
    assert "30 days" in board["description"]
