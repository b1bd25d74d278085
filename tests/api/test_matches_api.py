"""Contract tests of the match endpoints: list, read, move, resign, offers, claim and Bea."""

from __future__ import annotations

import pytest

from games import services
from games.bea import turns as bea_turns
from games.engine import player_view
from games.models import Action, Match
from games.state_cache import load_state
from tests.games.conftest import ALICE_KNOCKS, BEA_LOOSE, stacked
from tests.games.live_helpers import lobby_match

from .conftest import Api, body

pytestmark = pytest.mark.django_db

DECK = stacked(ALICE_KNOCKS, BEA_LOOSE, "2D", "KC")


@pytest.fixture
def match(alice, bob) -> Match:
    return lobby_match(alice, bob, deck=DECK)


def act(api: Api, match: Match | str, action: dict, version: int | None = None):
    public_id = match if isinstance(match, str) else match.public_id
    if version is None:
        version = body(api.get(f"/matches/{public_id}"))["version"]
    return api.post(f"/matches/{public_id}/actions", {"action": action, "version": version})


def test_it_lists_my_matches(alice_api: Api, carol_api: Api, match: Match):
    listed = body(alice_api.get("/matches"))
    assert [m["id"] for m in listed] == [match.public_id]
    assert listed[0]["seat"] == 0 and listed[0]["your_turn"] is True
    assert body(alice_api.get("/matches", status="finished")) == []
    assert body(carol_api.get("/matches")) == []
    bad = alice_api.get("/matches", status="everything")
    assert (bad.status_code, body(bad)["code"]) == (400, "malformed")


def test_it_shows_each_seat_its_own_view(alice_api: Api, bob_api: Api, match: Match):
    mine = body(alice_api.get(f"/matches/{match.public_id}"))
    assert mine["seat"] == 0
    # The engine's view of the seat, plus what every reader gets: the match's status and why
    # a move is blocked (nothing blocks it here).
    expected = player_view(load_state(match), 0) | {"match_status": "active", "blocked": ""}
    assert mine["view"] == expected
    assert sorted(mine["view"]["hand"]) == sorted(ALICE_KNOCKS.split())
    theirs = body(bob_api.get(f"/matches/{match.public_id}"))
    assert theirs["view"]["seat"] == 1 and theirs["your_turn"] is False
    assert not set(theirs["view"]["hand"]) & set(ALICE_KNOCKS.split())


def test_a_watcher_gets_the_spectator_view_and_may_not_act(carol_api: Api, match: Match):
    watched = body(carol_api.get(f"/matches/{match.public_id}"))
    assert watched["seat"] is None and watched["view"]["hand"] == []
    refused = act(carol_api, match, {"type": "pass"}, 0)
    assert (refused.status_code, body(refused)["code"]) == (403, "not_your_match")
    resign = carol_api.post(f"/matches/{match.public_id}/resign", {"version": 0})
    assert resign.status_code == 403


def test_a_match_against_bea_is_private(alice, bob_api: Api):
    private = services.start_bea_match(alice, "standard", 100, "easy")
    assert bob_api.get(f"/matches/{private.public_id}").status_code == 404
    assert bob_api.get("/matches/no-such-match").status_code == 404


def test_a_move_and_the_version_it_was_made_for(alice_api: Api, bob_api: Api, match: Match):
    response = act(alice_api, match, {"type": "pass"}, 0)
    assert response.status_code == 200
    assert body(response)["version"] == 1 and body(response)["your_turn"] is False
    repeated = act(alice_api, match, {"type": "pass"}, 0)
    assert (repeated.status_code, body(repeated)["code"]) == (409, "stale_version")
    early = act(bob_api, match, {"type": "pass"}, 0)
    assert early.status_code == 409
    assert Action.objects.filter(match=match).count() == 1


def test_an_illegal_move_says_why_and_changes_nothing(alice_api: Api, match: Match):
    response = act(alice_api, match, {"type": "discard", "card": "KD"}, 0)
    assert response.status_code == 422
    assert body(response)["code"] == "illegal_move" and body(response)["message"]
    not_held = act(alice_api, match, {"type": "draw", "from": "stock"}, 0)
    assert not_held.status_code == 422
    match.refresh_from_db()
    assert match.version == 0


@pytest.mark.parametrize(
    "payload",
    [
        {"action": {"type": "pass"}},  # no version
        {"action": {"type": "pass"}, "version": "0"},
        {"action": {"type": "pass"}, "version": True},
        {"action": {"type": "pass"}, "version": -1},
        {"action": {"type": "fly"}, "version": 0},
        {"action": {"type": "discard"}, "version": 0},
        {"action": {"type": "discard", "card": "ZZ"}, "version": 0},
        {"action": {"type": "draw", "from": "sky"}, "version": 0},
        {"action": {"type": "pass", "extra": 1}, "version": 0},
        {"action": "pass", "version": 0},
        [],
    ],
)
def test_a_malformed_move_is_400(alice_api: Api, match: Match, payload):
    response = alice_api.post(f"/matches/{match.public_id}/actions", payload)
    assert response.status_code == 400
    assert body(response)["code"] == "malformed" and body(response)["errors"]


def test_a_body_that_is_not_json_is_400(alice_api: Api, match: Match):
    response = alice_api.post(f"/matches/{match.public_id}/actions", raw="{not json")
    assert (response.status_code, body(response)["code"]) == (400, "malformed")


def test_resigning_ends_the_match(alice_api: Api, bob_api: Api, match: Match):
    unsaid = alice_api.post(f"/matches/{match.public_id}/resign")
    assert (unsaid.status_code, body(unsaid)["code"]) == (400, "malformed")
    stale = alice_api.post(f"/matches/{match.public_id}/resign", {"version": 5})
    assert (stale.status_code, body(stale)["code"]) == (409, "stale_version")
    response = alice_api.post(f"/matches/{match.public_id}/resign", {"version": 0})
    assert response.status_code == 200
    assert body(response)["status"] == "resigned" and body(response)["winner_seat"] == 1
    # A closed match offers nobody a move: not the players, not a watcher.
    assert body(response)["view"]["legal_actions"] == []
    for api in (alice_api, bob_api):
        view = body(api.get(f"/matches/{match.public_id}"))["view"]
        assert view["legal_actions"] == [] and view["to_act"] is None
        assert view["match_status"] == "resigned"
    again = bob_api.post(f"/matches/{match.public_id}/resign", {"version": 0})
    assert (again.status_code, body(again)["code"]) == (409, "match_closed")
    late = act(bob_api, match, {"type": "pass"}, 0)
    assert (late.status_code, body(late)["code"]) == (409, "match_closed")


def test_rematch_offer_accept_and_decline(alice_api: Api, bob_api: Api, match: Match):
    early = alice_api.post(f"/matches/{match.public_id}/offers", {"kind": "rematch", "version": 0})
    assert (early.status_code, body(early)["code"]) == (422, "invalid_request")
    alice_api.post(f"/matches/{match.public_id}/resign", {"version": 0})
    offer = alice_api.post(f"/matches/{match.public_id}/offers", {"kind": "rematch", "version": 0})
    assert offer.status_code == 201
    offer_id = body(offer)["id"]
    own = alice_api.post(f"/matches/{match.public_id}/offers/{offer_id}/accept", {"version": 0})
    assert (own.status_code, body(own)["code"]) == (403, "not_your_match")
    declined = bob_api.post(f"/matches/{match.public_id}/offers/{offer_id}/decline", {"version": 0})
    assert body(declined)["offer"]["status"] == "declined" and body(declined)["next"] is None
    second = body(
        bob_api.post(f"/matches/{match.public_id}/offers", {"kind": "rematch", "version": 0})
    )
    accepted = alice_api.post(
        f"/matches/{match.public_id}/offers/{second['id']}/accept", {"version": 0}
    )
    assert accepted.status_code == 200
    new = body(accepted)["next"]
    assert body(accepted)["offer"]["result"] == new
    # The rematch swaps who plays first.
    assert body(bob_api.get(f"/matches/{new}"))["seat"] == 0
    offers = f"/matches/{match.public_id}/offers"
    gone = bob_api.post(f"{offers}/{second['id']}/withdraw", {"version": 0})
    assert gone.status_code == 409
    bad = alice_api.post(f"/matches/{match.public_id}/offers/1/maybe", {"version": 0})
    assert bad.status_code == 400


def test_claiming_the_win_is_refused_while_the_opponent_is_here(bob_api: Api, match: Match):
    response = bob_api.post(f"/matches/{match.public_id}/claim", {"version": 0})
    assert (response.status_code, body(response)["code"]) == (422, "illegal_move")


# --- Against Bea --------------------------------------------------------------------------------


def _version_of(public_id: str) -> tuple[int, str]:
    match = Match.objects.get(public_id=public_id)
    return match.version, match.status


@pytest.mark.django_db(transaction=True)
def test_bea_replies_to_an_api_move_without_any_get(alice_api: Api, quick_bea: None):
    response = alice_api.post("/matches/bea", {"level": "easy", "target": 50})
    assert response.status_code == 201
    started = body(response)
    assert started["kind"] == "bea" and started["seats"][1]["kind"] == "bea"
    view = started["view"]
    # The deal waits for Alice's seed alone (Bea sends none): her seed deals the hand.
    assert view["phase"] == "shuffling" and view["shuffle"]["awaiting"] == [0]
    seeded = body(act(alice_api, started["id"], {"type": "seed", "seed": "alices"}, 0))
    view = seeded["view"]
    assert view["to_act"] == 0 and view["version"] == 1
    # Pass the upcard; the answer is the move itself, and Bea's reply follows on the server.
    answer = body(act(alice_api, started["id"], {"type": "pass"}, view["version"]))
    assert answer["view"]["version"] == 2
    assert bea_turns.worker.wait_idle(30)
    # Read from the database, not through the API: nothing but her turn moved her.
    version, status = _version_of(started["id"])
    assert version >= 3 and status == "active"
    state = load_state(Match.objects.get(public_id=started["id"]))
    assert state.to_act == 0  # her turn is over: Alice's draw (or Alice's upcard offer)


@pytest.mark.django_db(transaction=True)
def test_a_whole_match_against_bea(alice_api: Api, quick_bea: None):
    match = body(alice_api.post("/matches/bea", {"level": "easy", "target": 50}))
    for _ in range(2000):
        if match["status"] != "active":
            break
        legal = match["view"]["legal_actions"]
        if not legal:  # her turn: she moves on her own
            assert bea_turns.worker.wait_idle(30)
            match = body(alice_api.get(f"/matches/{match['id']}"))
            assert match["view"]["legal_actions"] or match["status"] != "active"
            continue
        enders = [a for a in legal if a["type"] in ("gin", "big_gin", "knock")]
        action = enders[0] if enders else legal[-1]
        response = act(alice_api, match["id"], action, match["view"]["version"])
        assert response.status_code == 200, response.content
        match = body(response)
    assert match["status"] == "finished"
    assert match["view"]["settlement"]["winner"] in (0, 1)


def test_one_match_against_bea_at_a_time(alice_api: Api):
    first = body(alice_api.post("/matches/bea", {}))
    again = alice_api.post("/matches/bea", {})
    assert (again.status_code, body(again)["code"]) == (409, "bea_match_running")
    replaced = alice_api.post("/matches/bea", {"replace": True})
    assert replaced.status_code == 201
    assert body(replaced)["previous"] == first["id"]
    assert body(alice_api.get(f"/matches/{first['id']}"))["status"] == "abandoned"


def test_bea_refusals(alice_api: Api):
    bad_level = alice_api.post("/matches/bea", {"level": "godlike"})
    assert (bad_level.status_code, body(bad_level)["code"]) == (400, "malformed")
    bad_rules = alice_api.post("/matches/bea", {"target": 3})
    assert (bad_rules.status_code, body(bad_rules)["code"]) == (400, "malformed")
