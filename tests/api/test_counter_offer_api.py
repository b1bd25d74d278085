"""Counter-offers through the API: a decline that carries the rules the decliner would play,
the challenge JSON that shows them, and accept-counter; every refusal changes nothing."""

from __future__ import annotations

import pytest

from games.models import Match
from lobby import services
from lobby.models import Block, Challenge
from tests.lobby.lobby_helpers import age_challenge, lobby_matches, online
from tests.seeds import deal

from .conftest import Api, body

pytestmark = pytest.mark.django_db


def _challenge(api: Api, to: str = "bob", **rules) -> dict:
    response = api.post("/challenges", {"to": to, **rules})
    assert response.status_code == 201, response.content
    return body(response)


def _countered(alice_api: Api, bob_api: Api, **counter) -> dict:
    made = _challenge(alice_api)
    response = bob_api.post(
        f"/challenges/{made['id']}/decline",
        {"reason": "rules", "counter": counter or {"preset": "classic", "target": 250}},
    )
    assert response.status_code == 200, response.content
    return body(response)


def _still_open(api: Api, challenge_id: int) -> None:
    seen = body(api.get(f"/challenges/{challenge_id}"))
    assert seen["status"] == "open" and seen["counter"] is None
    assert not Challenge.objects.filter(counter_to_id=challenge_id).exists()


def test_a_plain_challenge_has_no_counter(alice_api: Api, bob):
    online(bob)
    made = _challenge(alice_api)
    assert made["counter"] is None and made["counter_to"] is None


def test_it_declines_with_a_counter_proposal(alice_api: Api, bob_api: Api, bob):
    online(bob)
    declined = _countered(alice_api, bob_api)
    assert declined["status"] == "declined" and declined["reason"] == "rules"
    counter = declined["counter"]
    assert (counter["preset"], counter["target"], counter["status"]) == ("classic", 250, "open")
    assert counter["match"] is None and counter["expires_at"].endswith("Z")
    # The challenger sees it on the challenge they sent...
    (outgoing,) = body(alice_api.get("/challenges"))["outgoing"]
    assert outgoing["id"] == declined["id"] and outgoing["counter"] == counter
    # ...and the proposal itself is a challenge to them, pointing back at it.
    (incoming,) = body(alice_api.get("/challenges"))["incoming"]
    assert incoming["id"] == counter["id"] and incoming["counter_to"] == declined["id"]
    assert incoming["challenger"]["username"] == "bob"
    assert (incoming["preset"], incoming["target"]) == ("classic", 250)


def test_the_reason_says_what_the_proposal_changes(alice_api: Api, bob_api: Api, bob):
    online(bob)
    declined = _countered(alice_api, bob_api, target=50)
    assert declined["reason"] == "target"
    assert (declined["counter"]["preset"], declined["counter"]["target"]) == ("standard", 50)


def test_it_declines_with_the_new_reason_alone(alice_api: Api, bob_api: Api, bob):
    online(bob)
    made = _challenge(alice_api)
    response = bob_api.post(f"/challenges/{made['id']}/decline", {"reason": "target"})
    assert response.status_code == 200
    assert body(response)["reason"] == "target" and body(response)["counter"] is None


def test_accepting_the_counter_starts_the_match_with_its_rules(alice_api: Api, bob_api: Api, bob):
    online(bob)
    declined = _countered(alice_api, bob_api)
    response = alice_api.post(f"/challenges/{declined['id']}/accept-counter")
    assert response.status_code == 201, response.content
    started = body(response)
    assert started["challenge"]["id"] == declined["id"]
    assert started["challenge"]["counter"]["status"] == "accepted"
    assert started["challenge"]["counter"]["match"] == started["match"]
    match = body(alice_api.get(f"/matches/{started['match']}"))
    assert match["rules"]["name"] == "classic" and match["rules"]["target"] == 250
    # bob proposed, so bob plays first, as a challenger does (once both seeds dealt the hand).
    assert match["seat"] == 1
    deal(Match.objects.get(public_id=started["match"]))
    assert body(bob_api.get(f"/matches/{started['match']}"))["your_turn"] is True
    assert body(alice_api.get(f"/matches/{started['match']}"))["your_turn"] is False


@pytest.mark.parametrize("second", ["accept-counter", "accept"])
def test_it_is_accepted_once_only(alice_api: Api, bob_api: Api, bob, second: str):
    online(bob)
    declined = _countered(alice_api, bob_api)
    assert alice_api.post(f"/challenges/{declined['id']}/accept-counter").status_code == 201
    target = declined["id"] if second == "accept-counter" else declined["counter"]["id"]
    again = alice_api.post(f"/challenges/{target}/{second}")
    assert (again.status_code, body(again)["code"]) == (409, "conflict")
    assert body(again)["message"] == "That proposal was already accepted."
    assert len(lobby_matches()) == 1


def test_it_refuses_an_expired_counter(alice_api: Api, bob_api: Api, bob):
    online(bob)
    declined = _countered(alice_api, bob_api)
    age_challenge(Challenge.objects.get(pk=declined["counter"]["id"]))
    response = alice_api.post(f"/challenges/{declined['id']}/accept-counter")
    assert (response.status_code, body(response)["code"]) == (409, "conflict")
    assert body(response)["message"] == "That proposal has expired."
    assert not lobby_matches()


def test_it_refuses_the_wrong_player(alice_api: Api, bob_api: Api, carol_api: Api, bob):
    online(bob)
    declined = _countered(alice_api, bob_api)
    own = bob_api.post(f"/challenges/{declined['id']}/accept-counter")
    assert (own.status_code, body(own)["code"]) == (403, "not_allowed")
    assert bob_api.post(f"/challenges/{declined['counter']['id']}/accept").status_code == 403
    assert carol_api.post(f"/challenges/{declined['id']}/accept-counter").status_code == 404
    assert not lobby_matches()
    assert Challenge.objects.get(pk=declined["counter"]["id"]).status == "open"


def test_it_refuses_a_challenge_without_a_counter(alice_api: Api, bob_api: Api, bob):
    online(bob)
    made = _challenge(alice_api)
    response = alice_api.post(f"/challenges/{made['id']}/accept-counter")
    assert (response.status_code, body(response)["code"]) == (422, "invalid_request")
    _still_open(alice_api, made["id"])


@pytest.mark.parametrize(
    ("decline", "status", "code"),
    [
        ({"reason": "rules", "counter": {"preset": "turbo"}}, 400, "malformed"),
        ({"reason": "rules", "counter": {"target": 77}}, 400, "malformed"),
        ({"reason": "rules", "counter": {"target": "250"}}, 400, "malformed"),
        ({"reason": "rules", "counter": {"preset": "classic", "colour": "red"}}, 400, "malformed"),
        ({"reason": "rules", "counter": "classic"}, 400, "malformed"),
        ({"reason": "later", "counter": {"preset": "classic"}}, 422, "invalid_request"),
        ({"reason": "rules", "counter": {}}, 422, "invalid_request"),
        ({"reason": "rules", "counter": {"preset": None, "target": None}}, 422, "invalid_request"),
        ({"reason": "rules", "counter": {"target": 100}}, 422, "invalid_request"),
    ],
)
def test_it_refuses_a_bad_counter_and_changes_nothing(
    alice_api: Api, bob_api: Api, bob, decline: dict, status: int, code: str
):
    online(bob)
    made = _challenge(alice_api)
    response = bob_api.post(f"/challenges/{made['id']}/decline", decline)
    assert (response.status_code, body(response)["code"]) == (status, code), decline
    assert body(response)["message"]
    _still_open(alice_api, made["id"])


def test_a_block_withdraws_the_counter(alice_api: Api, bob_api: Api, alice, bob):
    online(bob)
    declined = _countered(alice_api, bob_api)
    services.block(bob, alice)
    response = alice_api.post(f"/challenges/{declined['id']}/accept-counter")
    assert (response.status_code, body(response)["code"]) == (409, "conflict")
    assert body(response)["message"] == "That proposal was withdrawn."
    assert not lobby_matches()


def test_a_block_behind_the_services_back_still_refuses(alice_api: Api, bob_api: Api, alice, bob):
    online(bob)
    declined = _countered(alice_api, bob_api)
    Block.objects.create(blocker=alice, blocked=bob)
    response = alice_api.post(f"/challenges/{declined['id']}/accept-counter")
    assert (response.status_code, body(response)["code"]) == (403, "not_allowed")
    assert not lobby_matches()


@pytest.mark.django_db(transaction=True)
def test_both_players_hear_of_the_counter_and_its_acceptance(alice_api: Api, bob_api: Api, bob):
    online(bob)
    declined = _countered(alice_api, bob_api)
    started = body(alice_api.post(f"/challenges/{declined['id']}/accept-counter"))
    for api, direction in ((alice_api, "incoming"), (bob_api, "outgoing")):
        events = [e["data"] for e in body(api.get("/events", since=0))["events"]]
        answers = [e for e in events if e.get("id") == declined["id"]]
        assert answers[-1]["status"] == "declined"
        assert answers[-1]["counter"]["preset"] == "classic"
        proposal = [e for e in events if e.get("counter_to") == declined["id"]]
        assert [(e["status"], e["direction"]) for e in proposal] == [
            ("open", direction),
            ("accepted", direction),
        ]
        assert proposal[-1]["match"] == started["match"]
