"""The provably fair deal on the site (docs/fairness.md): a hand shows its commitment and
waits for the players' seeds before it is dealt; the page and ginclient send theirs, the API
lets a client set its own; each seed changes the whole deal; a seed on a later action, or a
second one, changes nothing; a seed that never comes is replaced by none after the wait;
against Bea the player's seed alone counts; the replay reveals the server seed and the seeds,
and an independent check (``ginclient.verify``) accepts them and refuses anything tampered
with. Older matches keep replaying as they were dealt."""

from __future__ import annotations

import copy
import itertools
import json
import random
from collections.abc import Iterator
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import pytest
from django.urls import reverse
from django.utils import timezone

from games import services
from games.engine import fair, legal_actions
from games.live import presence
from games.models import Action, Match
from games.private import tables as private
from games.state_cache import SEED_WAIT_SECONDS, forget_all, load_state
from ginclient.api import move_body
from ginclient.verify import check
from tests.api.conftest import Api, body, token_for

from .conftest import start
from .live_helpers import lobby_match, signed_in
from .test_replay import DECK, FIRST_HAND, api_path, page, play

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.test import Client

pytestmark = pytest.mark.django_db

DRAW = {"type": "draw", "from": "stock"}


def commitment_of(match: Match, hand: int) -> str:
    return fair.commitment(fair.server_seed(match.seed, hand))


def seed(match: Match, seat: int, value: str | None, version: int | None = None) -> None:
    match.refresh_from_db()
    action = {"type": "seed"} if value is None else {"type": "seed", "seed": value}
    services.submit(match, seat, action, match.version if version is None else version)


def second_hand(alice: User, bob: User) -> Match:
    """A lobby match whose stacked (so not provably fair) first hand is over and whose second
    hand waits for the players' seeds."""
    match = lobby_match(alice, bob, deck=DECK)
    play(match, [*FIRST_HAND, (0, {"type": "next_hand"})])
    match.refresh_from_db()
    assert state_of(match).phase == "shuffling"
    return match


def play_out(match: Match, rng: random.Random) -> None:
    """Play the dealt hand to its end: whoever may knock or go gin does."""
    while True:
        match.refresh_from_db()
        state = state_of(match)
        if state.phase in ("hand_over", "match_over"):
            return
        seat = state.to_act
        legal = legal_actions(state, seat)
        enders = [a for a in legal if a["type"] in ("gin", "big_gin", "knock")]
        services.submit(match, seat, dict(rng.choice(enders or legal)), match.version)


def state_of(match: Match) -> Any:
    """The match's state as it is now in the database."""
    match.refresh_from_db()
    return load_state(match)


def api_of(user: User) -> Api:
    return Api(token_for(user))


def view_of(api: Api, match: Match) -> dict[str, Any]:
    return body(api.get(f"/matches/{match.public_id}"))["view"]


def same_secret(match: Match, like: Match) -> None:
    Match.objects.filter(pk=match.pk).update(seed=like.seed)
    match.refresh_from_db()
    forget_all()


# --- The commitment comes first ---------------------------------------------------------------


def test_a_new_match_shows_its_commitment_and_waits_for_both_seeds(alice: User, bob: User):
    match = lobby_match(alice, bob)
    assert match.fair == fair.SEEDED
    api = api_of(alice)
    detail = body(api.get(f"/matches/{match.public_id}"))
    view = detail["view"]
    assert view["phase"] == "shuffling" and view["to_act"] is None
    assert view["hand"] == [] and view["discard_pile"] == [] and view["stock_count"] == 0
    assert view["legal_actions"] == [{"type": "seed"}] and detail["your_turn"] is True
    shuffle = view["shuffle"]
    assert shuffle["commitment"] == commitment_of(match, 1)
    assert (shuffle["seeders"], shuffle["awaiting"], shuffle["seeded"]) == (
        [0, 1],
        [0, 1],
        [False, False],
    )
    due = timezone.now() + timedelta(seconds=SEED_WAIT_SECONDS)
    assert abs((match.deal_due - due).total_seconds()) < 5
    assert shuffle["deal_by"].endswith("Z")
    # The commitment was in the answer before any seed was taken; the seed's answer shows
    # the same commitment.
    answer = api.post(
        f"/matches/{match.public_id}/actions",
        {"action": {"type": "seed", "seed": "alice-api-seed"}, "version": view["version"]},
    )
    assert answer.status_code == 200, answer.content
    after = body(answer)["view"]
    assert after["shuffle"]["commitment"] == shuffle["commitment"]
    assert after["shuffle"]["awaiting"] == [1] and after["legal_actions"] == []
    assert "alice-api-seed" not in answer.content.decode()
    assert body(api_of(bob).get(f"/matches/{match.public_id}"))["your_turn"] is True


def test_the_page_shows_the_commitment_and_sends_its_seed_at_once(alice: User, bob: User):
    match = lobby_match(alice, bob)
    client = signed_in(alice)
    table = client.get(reverse("games:table", args=[match.public_id])).content.decode()
    assert commitment_of(match, 1)[:12] in table
    assert "Shuffling: sending your seed…" in table
    # The seed's request posts itself on load (table.js adds a random seed of its own).
    actions = table.split('id="actions"')[1].split("</section>")[0]
    assert "data-seed-wanted" in actions.split(">")[0]
    assert 'value="seed"' in actions and 'hx-trigger="load"' in actions
    response = client.post(
        reverse("games:act", args=[match.public_id]),
        {"move": "seed", "seed": "from-the-page", "version": match.version},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    assert state_of(match).seeded == ("from-the-page", None)
    table = client.get(reverse("games:table", args=[match.public_id])).content.decode()
    assert "Shuffling: waiting for bob&#x27;s seed." in table or "waiting for bob's seed" in table
    assert "data-seed-wanted" not in table and "from-the-page" not in table
    bobs = signed_in(bob).get(reverse("games:table", args=[match.public_id])).content.decode()
    assert "Shuffling: sending your seed…" in bobs and 'value="seed"' in bobs


# --- Each seed goes into the whole deal -------------------------------------------------------


def twins(alice: User, bob: User, runs: tuple[Any, ...]) -> Iterator[tuple[Any, Match]]:
    """One lobby match per run, all with the same secret, each dealt from the seeds
    ``alice-seed`` and ``bob-seed`` unless the caller seeds it; each resigned once the caller
    is done with it (one lobby match at a time)."""
    first = None
    for run in runs:
        match = lobby_match(alice, bob)
        if first is None:
            first = match
        else:
            same_secret(match, first)
        yield run, match
        services.resign(match, 0, state_of(match).version)


def test_a_players_seed_changes_both_hands_the_upcard_and_the_stock(alice: User, bob: User):
    deals = []
    for bobs, match in twins(alice, bob, ("bob-seed", "bob-other-seed", "bob-third-seed")):
        seed(match, 0, "alice-seed")
        seed(match, 1, bobs)
        state = state_of(match)
        server = fair.server_seed(match.seed, 1)
        deck = fair.seeded_deck(server, ("alice-seed", bobs))
        assert state.hands == (tuple(deck[0:10]), tuple(deck[10:20]))
        assert state.discard == (deck[20],) and state.stock == tuple(deck[21:])
        deals.append(state)
    for one, other in itertools.combinations(deals, 2):
        assert one.hands[0] != other.hands[0] and one.hands[1] != other.hands[1]
        assert one.stock != other.stock
    # One upcard of 52 can come up again under another seed (1 in 52 for a pair of seeds);
    # three seeds all turning up the same card would mean the seed did not reach it.
    assert len({state.discard for state in deals}) > 1


def test_a_seed_on_a_later_action_changes_nothing(alice: User, bob: User):
    states = []
    api = api_of(alice)
    for later, match in twins(alice, bob, (None, "a-later-seed")):
        seed(match, 0, "alice-seed")
        seed(match, 1, "bob-seed")
        for seat, action in ((0, {"type": "pass"}), (1, {"type": "pass"}), (0, DRAW)):
            if seat == 1:
                services.submit(match, 1, action, state_of(match).version)
                continue
            move = {"action": action, "version": state_of(match).version}
            if later:
                move["seed"] = later  # as the API takes it beside a move
            assert api.post(f"/matches/{match.public_id}/actions", move).status_code == 200
        state = state_of(match)
        states.append((state.hands, state.stock, state.discard, state.seeded))
    assert states[0] == states[1]


def test_a_second_seed_from_the_same_seat_changes_nothing(alice: User, bob: User):
    match = lobby_match(alice, bob)
    api = api_of(alice)
    path = f"/matches/{match.public_id}/actions"
    first = api.post(path, {"action": {"type": "seed", "seed": "first"}, "version": 0})
    assert first.status_code == 200
    again = api.post(path, {"action": {"type": "seed", "seed": "second"}, "version": 1})
    assert again.status_code == 422
    assert "only the first one counts" in body(again)["message"]
    match.refresh_from_db()
    assert match.version == 1 and state_of(match).seeded == ("first", None)
    # A seed from a page that has not yet heard of the other seat's is still taken.
    seed(match, 1, "bobs", version=0)
    assert state_of(match).seeded == ("first", "bobs")
    # After the deal a seed is too late, and says so.
    late = api.post(path, {"action": {"type": "seed", "seed": "late"}, "version": 1})
    assert late.status_code == 409 and "too late" in body(late)["message"]
    now = api.post(path, {"action": {"type": "seed", "seed": "late"}, "version": 2})
    assert now.status_code == 422 and "No seed is wanted now" in body(now)["message"]
    assert Action.objects.filter(match=match).count() == 2


def test_the_api_takes_a_seed_in_the_action_or_beside_it(alice: User, bob: User):
    match = lobby_match(alice, bob)
    path = f"/matches/{match.public_id}/actions"
    beside = api_of(alice).post(path, {"action": {"type": "seed"}, "seed": "beside", "version": 0})
    assert beside.status_code == 200, beside.content
    inside = api_of(bob).post(path, {"action": {"type": "seed", "seed": "inside"}, "version": 1})
    assert inside.status_code == 200
    assert state_of(match).seeded == ("beside", "inside")


def test_the_openapi_schema_describes_the_seed_action(alice: User):
    schemas = body(api_of(alice).get("/openapi.json"))["components"]["schemas"]
    action = schemas["ActionIn"]["properties"]["action"]
    kinds = {ref["$ref"].rsplit("/", 1)[-1] for ref in action["oneOf"]}
    assert "SeedAction" in kinds
    seed_field = schemas["SeedAction"]["properties"]["seed"]["anyOf"][0]
    assert (seed_field["pattern"], seed_field["maxLength"]) == ("^[A-Za-z0-9_-]+$", 64)
    assert set(schemas["RevealedShuffle"]["properties"]) >= {"seeds", "cuts", "server_seed"}


@pytest.mark.parametrize("bad", ["", "has space", "x" * 65, 12, "semi:colon"])
def test_a_malformed_seed_is_refused_and_changes_nothing(alice: User, bob: User, bad: object):
    match = lobby_match(alice, bob)
    api = api_of(alice)
    for move in (
        {"action": {"type": "seed", "seed": bad}, "version": 0},
        {"action": {"type": "seed"}, "seed": bad, "version": 0},
    ):
        answer = api.post(f"/matches/{match.public_id}/actions", move)
        assert answer.status_code == 400 and body(answer)["code"] == "malformed"
    response = signed_in(alice).post(
        reverse("games:act", args=[match.public_id]),
        {"move": "seed", "version": 0, "seed": "has space"},
        HTTP_HX_REQUEST="true",
    )
    assert "A seed is 1 to 64" in response.content.decode()
    match.refresh_from_db()
    assert match.version == 0


def test_ginclient_sends_a_random_seed_of_its_own():
    waiting = {"version": 3, "seat": 1, "shuffle": {"scheme": fair.SCHEME, "seeded": [1, 0]}}
    one, two = (move_body(waiting, {"type": "seed"}) for _ in range(2))
    assert one["action"]["type"] == "seed" and one["version"] == 3
    assert (
        fair.is_player_seed(one["action"]["seed"])
        and one["action"]["seed"] != two["action"]["seed"]
    )
    dealt = {**waiting, "shuffle": {**waiting["shuffle"], "seeded": [True, False]}}
    assert move_body(dealt, {"type": "pass"}) == {"action": {"type": "pass"}, "version": 3}


# --- The wait, and a seed that never comes ----------------------------------------------------


def test_a_hand_is_dealt_without_a_seed_that_never_comes(alice: User, bob: User):
    match = lobby_match(alice, bob)
    seed(match, 0, "alice-seed")
    match.refresh_from_db()
    due = match.deal_due
    assert due is not None
    # Until the wait is over nothing happens (the sweep of every worker calls this).
    assert services.deal_overdue(now=due - timedelta(seconds=1)) == 0
    assert state_of(match).phase == "shuffling"
    assert services.deal_overdue(now=due + timedelta(seconds=1)) == 1
    match.refresh_from_db()
    state = state_of(match)
    assert state.phase == "upcard_offer" and state.seeded == ("alice-seed", "")
    deck = fair.seeded_deck(fair.server_seed(match.seed, 1), ("alice-seed", ""))
    assert state.hands[1] == tuple(deck[10:20])
    assert match.deal_due is None
    # In the log: the seed action bob's client would send to say "none", on bob's seat.
    last = Action.objects.get(match=match, seq=match.version)
    assert (last.seat, last.payload) == (1, {"type": "seed"})
    assert services.deal_overdue(now=due + timedelta(minutes=5)) == 0  # dealt once
    # Bob's seed, late, changes nothing.
    late = api_of(bob).post(
        f"/matches/{match.public_id}/actions",
        {"action": {"type": "seed", "seed": "bob-late"}, "version": 1},
    )
    assert late.status_code == 409
    assert state_of(match).seeded == ("alice-seed", "")


def test_a_hand_nobody_seeds_is_dealt_after_the_wait_too(alice: User, bob: User):
    match = lobby_match(alice, bob)
    assert services.deal_overdue(now=match.deal_due + timedelta(seconds=1)) == 1
    state = load_state(Match.objects.get(pk=match.pk))
    assert state.seeded == ("", "") and state.to_act == 0


def test_the_next_hand_waits_again_from_its_own_start(alice: User, bob: User):
    match = second_hand(alice, bob)
    match.refresh_from_db()
    assert match.deal_due is not None and match.deal_due > timezone.now()
    seed(match, 0, "a")
    seed(match, 1, "b")
    match.refresh_from_db()
    assert match.deal_due is None and state_of(match).phase == "upcard_offer"


def test_friends_at_a_private_table_wait_for_each_other(alice: User):
    table, match, _ = private.open_table(alice)
    seed(match, 0, "hosts-seed")
    match.refresh_from_db()
    later = match.deal_due + timedelta(seconds=1)
    # The second seat is still empty: the wait starts again instead of dealing.
    assert services.deal_overdue(now=later) == 0
    match.refresh_from_db()
    assert match.deal_due > later and state_of(match).phase == "shuffling"


# --- Against Bea: the player's seed alone -----------------------------------------------------


def test_beas_matches_wait_for_the_players_seed_alone(alice: User, alice_client: Client):
    match = start(alice)
    view = view_of(api_of(alice), match)
    assert view["shuffle"]["seeders"] == [0] and view["shuffle"]["awaiting"] == [0]
    with pytest.raises(services.IllegalMove, match="sends no seed"):
        services.submit(match, 1, {"type": "seed", "seed": "beas-own"}, match.version)
    table = alice_client.get(reverse("games:table", args=[match.public_id])).content.decode()
    assert "Shuffling: sending your seed…" in table
    seed(match, 0, "alice-seed")
    state = state_of(match)
    deck = fair.seeded_deck(fair.server_seed(match.seed, 1), ("alice-seed", ""))
    assert state.phase == "upcard_offer" and state.hands[0] == tuple(deck[0:10])
    assert state.discard == (deck[20],) and state.stock == tuple(deck[21:])


# --- The reveal, and the checks -------------------------------------------------------------


def test_the_replay_reveals_the_seeds_and_an_independent_check_accepts_them(alice: User, bob: User):
    match = second_hand(alice, bob)
    api = api_of(alice)
    assert api.get(api_path(match, 2)).status_code == 404  # still in play: nothing revealed
    seed(match, 1, "bob-seed")
    seed(match, 0, "alice-seed")
    assert api.get(api_path(match, 2)).status_code == 404
    assert signed_in(alice).get(page(match, 2)).status_code == 404
    play_out(match, random.Random(5))
    replay = body(api.get(api_path(match, 2)))
    shuffle = replay["shuffle"]
    assert shuffle["scheme"] == "sha256-seeded-deal-2"
    assert shuffle["server_seed"] == fair.server_seed(match.seed, 2)
    assert shuffle["commitment"] == commitment_of(match, 2)
    assert shuffle["seeds"] == ["alice-seed", "bob-seed"] and shuffle["cuts"] is None
    verdict = check(replay)
    assert verdict.ok, verdict.problems
    assert verdict.seeds == ["alice-seed", "bob-seed"] and verdict.cuts == 0
    assert match.seed not in json.dumps(replay)
    first = body(api.get(api_path(match, 1)))  # the stacked first hand cannot be checked
    assert first["shuffle"] is None and not check(first).ok


def test_a_tampered_reveal_fails_the_check(alice: User, bob: User):
    match = second_hand(alice, bob)
    seed(match, 0, "alice-seed")
    seed(match, 1, "bob-seed")
    play_out(match, random.Random(8))
    replay = body(api_of(alice).get(api_path(match, 2)))
    assert check(replay).ok

    other_seed = copy.deepcopy(replay)
    other_seed["shuffle"]["server_seed"] = fair.server_seed("some other secret", 2)
    assert "commitment" in " ".join(check(other_seed).problems)

    forged = fair.server_seed("some other secret", 2)
    both_changed = copy.deepcopy(replay)
    both_changed["shuffle"].update(server_seed=forged, commitment=fair.commitment(forged))
    assert not check(both_changed).ok  # the deal no longer matches

    for seat in (0, 1):
        other_player_seed = copy.deepcopy(replay)
        other_player_seed["shuffle"]["seeds"][seat] = "someone-elses"
        assert "was not dealt the committed cards" in " ".join(check(other_player_seed).problems)

    dropped = copy.deepcopy(replay)
    dropped["shuffle"]["seeds"][1] = ""  # as if bob's seed had never come
    assert not check(dropped).ok

    drew = [m for m in replay["moves"][1:] if (m["action"] or {}).get("source") == "stock"]
    if drew:
        other_card = copy.deepcopy(replay)
        move = next(
            m for m in other_card["moves"][1:] if (m["action"] or {}).get("source") == "stock"
        )
        move["action"]["card"] = next(c for c in fair.deck(forged) if c != move["action"]["card"])
        assert not check(other_card).ok


def test_the_replay_page_offers_the_check_in_the_browser(alice: User, bob: User):
    match = second_hand(alice, bob)
    seed(match, 0, "alice-seed")
    seed(match, 1, None)  # bob's client sent none
    play_out(match, random.Random(2))
    html = signed_in(bob).get(page(match, 2)).content.decode()
    assert 'id="verify-shuffle"' in html
    assert fair.server_seed(match.seed, 2) in html
    assert "alice-seed" in html
    assert "<dd>none</dd>" in html  # bob sent no seed
    assert "Before either player&#x27;s seed" in html or "Before either player's seed" in html
    data = html.split('<script id="shuffle-data" type="application/json">')[1].split("</script>")[0]
    assert check(json.loads(data)).ok


# --- Older matches keep replaying and verifying as they were dealt --------------------------


def made_earlier(match: Match, scheme: int) -> Match:
    """``match`` as a match made before the seeded deal, under ``scheme``, is in the database
    (what migration 0010 left of it): its first hand dealt at once, as it was then."""
    Match.objects.filter(pk=match.pk).update(fair=scheme, deal_due=None)
    match.refresh_from_db()
    forget_all()
    return match


def test_a_match_made_before_any_fair_shuffle_still_replays_its_old_deal(alice: User, bob: User):
    from games.engine import new_match, shuffled_deck

    match = made_earlier(lobby_match(alice, bob), fair.NONE)
    state = state_of(match)
    assert state.hands == new_match(state.rules, seed=match.seed).hands
    assert list(state.hands[0]) == shuffled_deck(match.seed, 1)[0:10]
    assert view_of(api_of(alice), match)["shuffle"] is None


def test_a_match_of_the_older_fair_scheme_still_cuts_and_verifies(alice: User, bob: User):
    match = made_earlier(lobby_match(alice, bob), fair.CUT)
    state = state_of(match)
    assert state.phase == "upcard_offer"
    assert state.hands[0] == tuple(fair.deck(fair.server_seed(match.seed, 1))[0:10])
    api = api_of(alice)
    view = view_of(api, match)
    assert view["shuffle"]["scheme"] == "sha256-fisher-yates-1"
    # ginclient still sends a seed with its first move there: it cuts the stock.
    move = move_body(view, {"type": "pass"})
    assert "seed" in move
    assert api.post(f"/matches/{match.public_id}/actions", move).status_code == 200
    assert state_of(match).seeded[0] == move["seed"]
    play_out(match, random.Random(3))
    replay = body(api.get(api_path(match, 1)))
    assert (
        replay["shuffle"]["cuts"][0]["seed"] == move["seed"] and replay["shuffle"]["seeds"] is None
    )
    verdict = check(replay)
    assert verdict.ok, verdict.problems
    assert verdict.cuts == 1
    html = signed_in(alice).get(page(match, 1)).content.decode()
    assert "none (did not cut the stock)" in html


def test_presence_is_not_needed_for_a_seed_at_a_private_table(alice: User):
    """A seed is no move: it is taken while the other player is away (moves are not)."""
    table, match, _ = private.open_table(alice)
    presence.seat_connected(match.pk, 0)
    seed(match, 0, "hosts-seed")
    assert state_of(match).seeded[0] == "hosts-seed"
