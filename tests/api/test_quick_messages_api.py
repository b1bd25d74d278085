"""Quick messages through the API: a seat says one, both players get it on their event
stream; an unknown id, a watcher and a second message too soon are refused; mute is per
reader."""

from __future__ import annotations

import json

import pytest

from games.live import quick_messages
from games.models import MessageMute
from tests.games.live_helpers import lobby_match

from .conftest import Api, body

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(alice, bob):  # type: ignore[no-untyped-def]
    return lobby_match(alice, bob)


def _messages(api: Api) -> list[dict]:
    return [
        e["data"] for e in body(api.get("/events", since=0))["events"] if e["type"] == "message"
    ]


def test_both_players_get_it_on_their_event_streams(alice_api: Api, bob_api: Api, match) -> None:
    response = bob_api.post(f"/matches/{match.public_id}/messages", {"message": "good_luck"})
    assert response.status_code == 200
    assert body(response) == {
        "match": match.public_id,
        "seat": 1,
        "message": "good_luck",
        "text": "Good luck",
    }
    expected = {"match": match.public_id, "seat": 1, "from": "bob", "message": "good_luck"}
    assert _messages(alice_api) == [{**expected, "mine": False}]
    assert _messages(bob_api) == [{**expected, "mine": True}]


def test_an_unknown_id_is_refused(alice_api: Api, bob_api: Api, match) -> None:
    response = alice_api.post(f"/matches/{match.public_id}/messages", {"message": "hi there"})
    assert response.status_code == 400
    assert body(response)["code"] == "malformed"
    assert "good_luck" in json.dumps(body(response)["errors"])
    assert _messages(bob_api) == []


def test_the_schema_lists_exactly_the_messages(alice_api: Api) -> None:
    schema = body(alice_api.get("/openapi.json"))["components"]["schemas"]["MessageIn"]
    assert schema["properties"]["message"]["enum"] == list(quick_messages.MESSAGES)
    assert schema["additionalProperties"] is False


@pytest.mark.parametrize(
    ("path", "sent"),
    [
        ("messages", {"message": "good_luck", "extra": 1}),
        ("messages", {"message": 1}),
        ("messages/mute", {"muted": 0}),
        ("messages/mute", {"muted": "true"}),
        ("messages/mute", {"muted": True, "until": "never"}),
    ],
)
def test_unknown_fields_and_loose_types_are_refused(
    alice_api: Api, bob_api: Api, match, path: str, sent: dict
) -> None:
    response = alice_api.post(f"/matches/{match.public_id}/{path}", sent)
    assert response.status_code == 400 and body(response)["code"] == "malformed"
    assert _messages(bob_api) == []
    assert not MessageMute.objects.exists()


def test_a_watcher_may_not_send(carol_api: Api, alice_api: Api, match) -> None:
    response = carol_api.post(f"/matches/{match.public_id}/messages", {"message": "good_game"})
    assert response.status_code == 403
    assert _messages(alice_api) == []


def test_a_second_message_too_soon_is_refused(alice_api: Api, bob_api: Api, match) -> None:
    path = f"/matches/{match.public_id}/messages"
    assert alice_api.post(path, {"message": "good_luck"}).status_code == 200
    again = alice_api.post(path, {"message": "oops"})
    assert again.status_code == 429
    assert body(again)["code"] == "rate_limited"
    assert 1 <= int(again["Retry-After"]) <= quick_messages.COOLDOWN_SECONDS
    assert [m["message"] for m in _messages(bob_api)] == ["good_luck"]


def test_a_reader_who_muted_gets_no_event(alice_api: Api, bob_api: Api, match) -> None:
    muted = bob_api.post(f"/matches/{match.public_id}/messages/mute", {"muted": True})
    assert body(muted) == {"match": match.public_id, "muted": True}
    alice_api.post(f"/matches/{match.public_id}/messages", {"message": "well_played"})
    assert _messages(bob_api) == []
    assert [m["message"] for m in _messages(alice_api)] == ["well_played"]


def test_a_stranger_is_told_there_is_no_such_match(carol_api: Api, alice, bob) -> None:
    from games import services

    bea = services.start_bea_match(alice, "standard", 100, "easy")
    response = carol_api.post(f"/matches/{bea.public_id}/messages", {"message": "good_luck"})
    assert response.status_code == 404
