"""Contract tests of the lobby endpoints: me, players, challenges and seeks, with every refusal."""

from __future__ import annotations

import pytest

from games.models import Match
from lobby import services
from lobby.models import Challenge, Seek
from tests.lobby.lobby_helpers import age_challenge, online
from tests.seeds import deal

from .conftest import Api, body

pytestmark = pytest.mark.django_db


def test_me_shows_name_language_and_stats(alice_api: Api, alice):
    alice.profile.display_name = "Alice A."
    alice.profile.save()
    data = body(alice_api.get("/me"))
    assert data["username"] == "alice" and data["display_name"] == "Alice A."
    assert data["stats"]["matches_played"] == 0


def test_online_lists_who_is_in_the_lobby_and_counts_the_asker(alice_api: Api, bob, carol):
    online(bob)
    data = body(alice_api.get("/players/online"))
    assert {p["username"] for p in data} == {"alice", "bob"}
    assert next(p for p in data if p["username"] == "alice")["me"] is True


def test_online_hides_players_who_blocked_you(alice_api: Api, alice, bob):
    online(bob)
    services.block(bob, alice)
    assert "bob" not in {p["username"] for p in body(alice_api.get("/players/online"))}


def test_a_profile_and_an_unknown_player(alice_api: Api, bob):
    online(bob)
    data = body(alice_api.get("/players/bob"))
    assert data["online"] is True and data["stats"]["matches_won"] == 0
    missing = alice_api.get("/players/nobody")
    assert missing.status_code == 404 and body(missing)["code"] == "not_found"


# --- Challenges ---------------------------------------------------------------------------------


def _challenge(api: Api, to: str = "bob", **rules) -> dict:
    response = api.post("/challenges", {"to": to, **rules})
    assert response.status_code == 201, response.content
    return body(response)


def test_it_sends_a_challenge_both_players_see(alice_api: Api, bob_api: Api, bob):
    online(bob)
    made = _challenge(alice_api, target=50)
    assert made["direction"] == "outgoing" and made["status"] == "open"
    assert made["challenged"]["username"] == "bob" and made["target"] == 50
    incoming = body(bob_api.get("/challenges"))["incoming"]
    assert [c["id"] for c in incoming] == [made["id"]]
    assert body(bob_api.get(f"/challenges/{made['id']}"))["direction"] == "incoming"


def test_challenge_refusals(alice_api: Api, alice, bob, carol):
    cases = [
        ({"to": "nobody"}, 404, "not_found"),
        ({"to": "alice"}, 422, "invalid_request"),
        ({"to": "bob", "target": 77}, 400, "malformed"),
        ({"to": "bob", "preset": "nope"}, 400, "malformed"),
        ({"to": "bob", "colour": "red"}, 400, "malformed"),
        ([], 400, "malformed"),
        ({"to": "carol"}, 409, "conflict"),  # carol is not in the lobby
        ({"to": 5}, 400, "malformed"),
        ({}, 400, "malformed"),
    ]
    online(bob)
    for request, status, code in cases:
        response = alice_api.post("/challenges", request)
        assert (response.status_code, body(response)["code"]) == (status, code), request
        assert body(response)["message"]
    services.block(bob, alice)
    blocked = alice_api.post("/challenges", {"to": "bob"})
    # As if bob were away: the answer does not reveal the block.
    assert (blocked.status_code, body(blocked)["code"]) == (409, "conflict")
    assert body(blocked)["message"] == "bob is not in the lobby right now."


def test_a_second_open_challenge_is_a_conflict(alice_api: Api, bob):
    online(bob)
    _challenge(alice_api)
    again = alice_api.post("/challenges", {"to": "bob"})
    assert again.status_code == 409


def test_accepting_starts_the_match(alice_api: Api, bob_api: Api, bob):
    online(bob)
    made = _challenge(alice_api)
    response = bob_api.post(f"/challenges/{made['id']}/accept")
    assert response.status_code == 201
    started = body(response)
    assert started["challenge"]["status"] == "accepted"
    assert started["challenge"]["match"] == started["match"]
    match = body(alice_api.get(f"/matches/{started['match']}"))
    # The first hand waits for both seeds (docs/fairness.md): alice's is awaited.
    assert match["seat"] == 0 and match["your_turn"] is True
    assert match["view"]["phase"] == "shuffling"
    deal(Match.objects.get(public_id=started["match"]))
    match = body(alice_api.get(f"/matches/{started['match']}"))
    assert match["view"]["to_act"] == 0 and match["your_turn"] is True


def test_only_the_challenged_player_accepts_or_declines(alice_api: Api, carol_api: Api, bob):
    online(bob)
    made = _challenge(alice_api)
    own = alice_api.post(f"/challenges/{made['id']}/accept")
    assert (own.status_code, body(own)["code"]) == (403, "not_allowed")
    decline = alice_api.post(f"/challenges/{made['id']}/decline", {"reason": "later"})
    assert decline.status_code == 403
    # Someone else's challenge does not exist for carol.
    assert carol_api.post(f"/challenges/{made['id']}/accept").status_code == 404
    assert carol_api.get(f"/challenges/{made['id']}").status_code == 404


def test_declining_with_a_reason(alice_api: Api, bob_api: Api, bob):
    online(bob)
    made = _challenge(alice_api)
    bad = bob_api.post(f"/challenges/{made['id']}/decline", {"reason": "rude"})
    assert (bad.status_code, body(bad)["code"]) == (400, "malformed")
    response = bob_api.post(f"/challenges/{made['id']}/decline", {"reason": "rules"})
    assert response.status_code == 200
    assert body(response)["status"] == "declined" and body(response)["reason"] == "rules"
    seen = body(alice_api.get("/challenges"))["outgoing"][0]
    assert seen["status"] == "declined" and seen["reason"] == "rules"
    again = bob_api.post(f"/challenges/{made['id']}/accept")
    assert (again.status_code, body(again)["code"]) == (409, "conflict")


def test_cancelling_and_expiry(alice_api: Api, bob_api: Api, bob):
    online(bob)
    made = _challenge(alice_api)
    assert bob_api.post(f"/challenges/{made['id']}/cancel").status_code == 403
    response = alice_api.post(f"/challenges/{made['id']}/cancel")
    assert body(response)["status"] == "cancelled"
    assert alice_api.post(f"/challenges/{made['id']}/cancel").status_code == 409
    other = _challenge(alice_api)
    age_challenge(Challenge.objects.get(pk=other["id"]))
    expired = bob_api.post(f"/challenges/{other['id']}/accept")
    assert expired.status_code == 409 and "expired" in body(expired)["message"]


# --- Seeks --------------------------------------------------------------------------------------


def test_a_seek_is_posted_listed_and_taken_once(alice_api: Api, bob_api: Api, carol_api: Api):
    response = alice_api.post("/seeks", {"preset": "standard", "target": 50})
    assert response.status_code == 201
    seek = body(response)
    assert seek["mine"] is True and seek["status"] == "open"
    listed = body(bob_api.get("/seeks"))
    assert [s["id"] for s in listed] == [seek["id"]] and listed[0]["mine"] is False
    assert body(bob_api.get(f"/seeks/{seek['id']}"))["poster"]["username"] == "alice"
    own = alice_api.post(f"/seeks/{seek['id']}/accept")
    assert (own.status_code, body(own)["code"]) == (422, "invalid_request")
    taken = bob_api.post(f"/seeks/{seek['id']}/accept")
    assert taken.status_code == 201
    match = body(taken)["match"]
    assert body(taken)["seek"]["match"] == match
    late = carol_api.post(f"/seeks/{seek['id']}/accept")
    assert (late.status_code, body(late)["code"]) == (409, "conflict")
    assert body(bob_api.get(f"/matches/{match}"))["seat"] == 1


def test_one_open_seek_and_cancelling_it(alice_api: Api, bob_api: Api):
    seek = body(alice_api.post("/seeks", {}))
    again = alice_api.post("/seeks", {})
    assert again.status_code == 409
    assert bob_api.post(f"/seeks/{seek['id']}/cancel").status_code == 403
    cancelled = alice_api.post(f"/seeks/{seek['id']}/cancel")
    assert body(cancelled)["status"] == "cancelled"
    assert alice_api.post(f"/seeks/{seek['id']}/cancel").status_code == 409
    assert alice_api.get("/seeks/99999").status_code == 404
    assert Seek.objects.get(pk=seek["id"]).status == Seek.Status.CANCELLED


def test_seek_refusals(alice_api: Api):
    bad = alice_api.post("/seeks", {"target": 7})
    assert (bad.status_code, body(bad)["code"]) == (400, "malformed")
    shape = alice_api.post("/seeks", {"target": "lots"})
    assert (shape.status_code, body(shape)["code"]) == (400, "malformed")


def test_the_schema_offers_exactly_the_sites_rules():
    from typing import get_args

    from games.engine import PRESETS
    from games.services import TARGETS
    from ginsite.lib.apikit import Preset, Target

    assert set(get_args(Preset)) == set(PRESETS)
    literal = get_args(Target)[0]  # Annotated[Literal[...], the whole-number check]
    assert set(get_args(literal)) == set(TARGETS)
