"""The provably fair shuffle on the site (docs/fairness.md): every new match is dealt from a
committed server seed; the table and the API show the commitment and nothing more while the
hand is played; a seat's first move (page or API) cuts the stock with its own seed; the replay
reveals the server seed and the cuts once the hand is over, and an independent check
(``ginclient.verify``) accepts what the server revealed and refuses anything tampered with."""

from __future__ import annotations

import copy
import json
import random
from typing import TYPE_CHECKING, Any

import pytest
from django.urls import reverse

from games import services
from games.engine import fair, legal_actions, new_match, shuffled_deck
from games.models import Action, Match
from games.states import forget_all, load_state
from ginclient.verify import check
from tests.api.conftest import Api, body, token_for

from .live_helpers import lobby_match, signed_in
from .test_replay import DECK, FIRST_HAND, api_path, page, play

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db


def commitment_of(match: Match, hand: int) -> str:
    return fair.commitment(fair.server_seed(match.seed, hand))


def second_hand(alice: User, bob: User) -> Match:
    """A lobby match whose stacked (so not provably fair) first hand is over and whose second,
    fair hand has just been dealt."""
    match = lobby_match(alice, bob, deck=DECK)
    play(match, [*FIRST_HAND, (0, {"type": "next_hand"})])
    match.refresh_from_db()
    assert load_state(match).hand_number == 2
    return match


def play_out(match: Match, seeds: dict[int, str], rng: random.Random) -> None:
    """Play the hand to its end, each seat's first move carrying its seed (if it has one);
    hands end soon: whoever may knock or go gin does."""
    sent: set[int] = set()
    while True:
        match.refresh_from_db()
        state = load_state(match)
        if state.phase in ("hand_over", "match_over"):
            return
        seat = state.to_act
        legal = legal_actions(state, seat)
        enders = [a for a in legal if a["type"] in ("gin", "big_gin", "knock")]
        action = dict(rng.choice(enders or legal))
        if seat in seeds and seat not in sent:
            action["seed"] = seeds[seat]
            sent.add(seat)
        services.submit(match, seat, action, match.version)


def test_a_new_match_is_dealt_from_its_commitment(alice: User, bob: User):
    match = lobby_match(alice, bob)
    assert match.fair
    state = load_state(match)
    deck = fair.deck(fair.server_seed(match.seed, 1))
    assert state.hands == (tuple(deck[0:10]), tuple(deck[10:20]))
    view = services_view(alice, match)
    assert view["shuffle"] == {
        "scheme": "sha256-fisher-yates-1",
        "hand_number": 1,
        "commitment": commitment_of(match, 1),
        "seeded": [False, False],
    }


def services_view(user: User, match: Match) -> dict[str, Any]:
    return body(Api(token_for(user)).get(f"/matches/{match.public_id}"))["view"]


def test_a_match_made_before_the_fair_shuffle_still_replays_its_old_deal(alice: User, bob: User):
    match = lobby_match(alice, bob)
    Match.objects.filter(pk=match.pk).update(fair=False)
    match.refresh_from_db()
    forget_all()
    state = load_state(match)
    old = new_match(state.rules, seed=match.seed)
    assert state.hands == old.hands
    assert list(state.hands[0]) == shuffled_deck(match.seed, 1)[0:10]
    assert services_view(alice, match)["shuffle"] is None


def test_the_page_sends_a_seed_with_the_first_move_and_the_stock_is_cut(alice: User, bob: User):
    match = second_hand(alice, bob)
    seat = load_state(match).to_act
    client = signed_in(alice if seat == 0 else bob)
    table = client.get(reverse("games:table", args=[match.public_id])).content.decode()
    assert "data-seed-wanted" in table
    assert commitment_of(match, 2)[:12] in table
    before = load_state(match)
    legal = legal_actions(before, seat)
    move = "pass" if {"type": "pass"} in legal else "draw_stock"
    response = client.post(
        reverse("games:act", args=[match.public_id]),
        {"move": move, "version": match.version, "seed": "from-the-page"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    match.refresh_from_db()
    after = load_state(match)
    assert after.seeded[seat] == "from-the-page"
    server = fair.server_seed(match.seed, 2)
    cut = fair.cut(before.stock, server, seat, "from-the-page")
    assert list(after.stock) == (cut if move == "pass" else cut[1:])
    assert Action.objects.get(match=match, seq=match.version).payload["seed"] == "from-the-page"
    # The page no longer asks this seat for a seed, and shows who cut.
    table = client.get(reverse("games:table", args=[match.public_id])).content.decode()
    assert "data-seed-wanted" not in table
    assert "from-the-page" not in table
    assert "before the deal; you cut the stock." in table
    other = signed_in(bob if seat == 0 else alice)
    theirs = other.get(reverse("games:table", args=[match.public_id])).content.decode()
    mover = (alice if seat == 0 else bob).username
    assert f"before the deal; {mover} cut the stock." in theirs


def test_an_api_move_carries_a_seed_beside_the_action(alice: User, bob: User):
    match = second_hand(alice, bob)
    seat = load_state(match).to_act
    api = Api(token_for(alice if seat == 0 else bob))
    view = body(api.get(f"/matches/{match.public_id}"))["view"]
    action = next(a for a in view["legal_actions"] if a["type"] in ("pass", "draw"))
    answer = api.post(
        f"/matches/{match.public_id}/actions",
        {"action": action, "version": view["version"], "seed": "api-seed_1"},
    )
    assert answer.status_code == 200, answer.content
    shown = body(answer)["view"]["shuffle"]
    assert shown["seeded"][seat] is True
    assert "api-seed_1" not in answer.content.decode()
    match.refresh_from_db()
    assert load_state(match).seeded[seat] == "api-seed_1"


@pytest.mark.parametrize("seed", ["", "has space", "x" * 65, 12])
def test_a_malformed_seed_is_refused_and_changes_nothing(alice: User, bob: User, seed: object):
    match = second_hand(alice, bob)
    seat = load_state(match).to_act
    api = Api(token_for(alice if seat == 0 else bob))
    view = body(api.get(f"/matches/{match.public_id}"))["view"]
    answer = api.post(
        f"/matches/{match.public_id}/actions",
        {"action": view["legal_actions"][0], "version": view["version"], "seed": seed},
    )
    # A seed of the wrong form or type is a malformed body (docs/api.md).
    assert answer.status_code == 400
    assert body(answer)["code"] == "malformed"
    match.refresh_from_db()
    assert match.version == view["version"]
    # The page's form says why, too.
    client = signed_in(alice if seat == 0 else bob)
    response = client.post(
        reverse("games:act", args=[match.public_id]),
        {"move": "pass", "version": match.version, "seed": "has space"},
        HTTP_HX_REQUEST="true",
    )
    assert "A seed is 1 to 64" in response.content.decode()
    match.refresh_from_db()
    assert match.version == view["version"]


def test_the_replay_reveals_the_seeds_and_an_independent_check_accepts_them(alice: User, bob: User):
    match = second_hand(alice, bob)
    api = Api(token_for(alice))
    # While hand 2 is played nothing reveals its server seed, and its replay does not exist.
    assert api.get(api_path(match, 2)).status_code == 404
    assert signed_in(alice).get(page(match, 2)).status_code == 404
    play_out(match, {0: "alice-cuts", 1: "bob-cuts"}, random.Random(5))
    replay = body(api.get(api_path(match, 2)))
    shuffle = replay["shuffle"]
    assert shuffle["server_seed"] == fair.server_seed(match.seed, 2)
    assert shuffle["commitment"] == commitment_of(match, 2)
    assert sorted((c["seat"], c["seed"]) for c in shuffle["cuts"]) == [
        (0, "alice-cuts"),
        (1, "bob-cuts"),
    ]
    verdict = check(replay)
    assert verdict.ok, verdict.problems
    assert verdict.cuts == 2
    assert match.seed not in json.dumps(replay)
    # The stacked first hand cannot be checked, and says so.
    first = body(api.get(api_path(match, 1)))
    assert first["shuffle"] is None
    assert not check(first).ok


def test_a_tampered_reveal_fails_the_check(alice: User, bob: User):
    match = second_hand(alice, bob)
    play_out(match, {0: "alice-cuts", 1: "bob-cuts"}, random.Random(8))
    replay = body(Api(token_for(alice)).get(api_path(match, 2)))
    assert check(replay).ok

    other_seed = copy.deepcopy(replay)
    other_seed["shuffle"]["server_seed"] = fair.server_seed("some other secret", 2)
    assert "commitment" in " ".join(check(other_seed).problems)

    both_changed = copy.deepcopy(replay)
    forged = fair.server_seed("some other secret", 2)
    both_changed["shuffle"].update(server_seed=forged, commitment=fair.commitment(forged))
    assert not check(both_changed).ok  # the deal no longer matches

    other_cut = copy.deepcopy(replay)
    other_cut["shuffle"]["cuts"][0]["seed"] = "someone-elses"
    drew = [m for m in replay["moves"][1:] if (m["action"] or {}).get("source") == "stock"]
    if drew:  # a hand with a draw from the stock after the cut
        assert not check(other_cut).ok

    if drew:
        other_card = copy.deepcopy(replay)
        move = next(
            m for m in other_card["moves"][1:] if (m["action"] or {}).get("source") == "stock"
        )
        move["action"]["card"] = next(c for c in fair.deck(forged) if c != move["action"]["card"])
        assert not check(other_card).ok


def test_the_replay_page_offers_the_check_in_the_browser(alice: User, bob: User):
    match = second_hand(alice, bob)
    play_out(match, {0: "alice-cuts"}, random.Random(2))
    html = signed_in(bob).get(page(match, 2)).content.decode()
    assert 'id="verify-shuffle"' in html
    assert fair.server_seed(match.seed, 2) in html
    assert "alice-cuts" in html
    assert "none (did not cut the stock)" in html  # bob sent no seed
    data = html.split('<script id="shuffle-data" type="application/json">')[1].split("</script>")[0]
    assert check(json.loads(data)).ok
