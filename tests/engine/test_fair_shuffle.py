"""The provably fair shuffle (docs/fairness.md): commit, the players cut the stock, reveal."""

from __future__ import annotations

import hashlib
import json
import random
import re
from pathlib import Path

import pytest

from games.engine import (
    ALL_CARDS,
    IllegalAction,
    apply,
    fair,
    legal_actions,
    new_match,
    player_view,
    spectator_view,
)
from tests.engine.helpers import STANDARD, stacked

SECRET = "example-match-secret"
DOCS = Path(__file__).resolve().parents[2] / "docs" / "fairness.md"


def test_it_derives_the_worked_example_of_the_docs() -> None:
    """The numbers docs/fairness.md shows are what the engine computes: a re-implementation
    that follows the docs gets the same deck."""
    text = DOCS.read_text()
    server = fair.server_seed(SECRET, 1)
    assert f"server seed: {server}" in text
    assert f"commitment:  {fair.commitment(server)}" in text
    assert "deck:        " + " ".join(fair.deck(server)) in text
    stock = fair.deck(server)[21:]
    assert "after the cut: " + " ".join(fair.cut(stock, server, 0, "alice-seed")) in text


def test_the_commitment_is_the_sha256_of_the_server_seeds_hex_digits() -> None:
    server = fair.server_seed(SECRET, 1)
    assert re.fullmatch(r"[0-9a-f]{64}", server)
    assert fair.commitment(server) == hashlib.sha256(server.encode()).hexdigest()


def test_the_deck_is_a_deterministic_permutation_of_the_52_cards() -> None:
    server = fair.server_seed(SECRET, 1)
    assert fair.deck(server) == fair.deck(server)
    assert sorted(fair.deck(server)) == sorted(ALL_CARDS)
    assert fair.deck(server) != fair.deck(fair.server_seed(SECRET, 2))
    assert fair.server_seed(SECRET, 1) != fair.server_seed("another secret", 1)


def test_every_position_is_reachable_for_every_card() -> None:
    """Over many seeds the top card of the deck is each of the 52 (no card is stuck)."""
    tops = {fair.deck(fair.server_seed(SECRET, n))[0] for n in range(1, 1500)}
    assert tops == set(ALL_CARDS)


def test_a_fair_match_deals_the_committed_deck() -> None:
    state = new_match(STANDARD, seed=SECRET, fair=True)
    deck = fair.deck(fair.server_seed(SECRET, 1))
    assert state.hands == (tuple(deck[0:10]), tuple(deck[10:20]))
    assert state.discard == (deck[20],)
    assert state.stock == tuple(deck[21:])


def test_a_seats_first_seed_cuts_the_stock_and_a_second_changes_nothing() -> None:
    state = new_match(STANDARD, seed=SECRET, fair=True)
    server = fair.server_seed(SECRET, 1)
    after = apply(state, 0, {"type": "pass", "seed": "alice-seed"})
    assert after.stock == tuple(fair.cut(state.stock, server, 0, "alice-seed"))
    assert after.seeded == ("alice-seed", None)
    later = apply(after, 1, {"type": "pass", "seed": "bob-seed"})
    assert later.stock == tuple(fair.cut(after.stock, server, 1, "bob-seed"))
    drawn = apply(later, 0, {"type": "draw", "from": "stock", "seed": "another"})
    assert drawn.hands[0][-1] == later.stock[0]
    assert drawn.stock == later.stock[1:]
    assert drawn.seeded == ("alice-seed", "bob-seed")


def test_the_seeds_start_again_with_each_hand() -> None:
    state = new_match(STANDARD, seed=SECRET, fair=True)
    state = apply(state, 0, {"type": "pass", "seed": "alice-seed"})
    state = _play_to_hand_end(state, random.Random(3))
    assert state.seeded[0] == "alice-seed"
    state = apply(state, 0, {"type": "next_hand", "seed": "ignored-at-the-boundary"})
    assert state.hand_number == 2
    assert state.seeded == (None, None)
    deck = fair.deck(fair.server_seed(SECRET, 2))
    assert state.stock == tuple(deck[21:])


@pytest.mark.parametrize("seed", ["", "x" * 65, "a b", "semi:colon", 7, None, ["a"]])
def test_a_malformed_seed_is_refused_and_changes_nothing(seed: object) -> None:
    state = new_match(STANDARD, seed=SECRET, fair=True)
    with pytest.raises(IllegalAction, match="A seed is 1 to 64"):
        apply(state, 0, {"type": "pass", "seed": seed})
    assert state.seeded == (None, None)
    over = _play_to_hand_end(state, random.Random(2))
    with pytest.raises(IllegalAction, match="A seed is 1 to 64"):
        apply(over, 0, {"type": "next_hand", "seed": seed})


def test_a_seed_out_of_turn_is_refused_for_the_turn() -> None:
    state = new_match(STANDARD, seed=SECRET, fair=True)
    with pytest.raises(IllegalAction, match="not your turn"):
        apply(state, 1, {"type": "pass", "seed": "bob-seed"})


def test_a_seed_with_an_illegal_action_cuts_nothing() -> None:
    state = new_match(STANDARD, seed=SECRET, fair=True)
    with pytest.raises(IllegalAction):
        apply(state, 0, {"type": "discard", "card": state.hands[0][0], "seed": "alice-seed"})
    assert apply(state, 0, {"type": "pass"}).stock == state.stock


def test_a_match_that_is_not_fair_ignores_seeds() -> None:
    state = new_match(STANDARD, seed=7)
    assert apply(state, 0, {"type": "pass", "seed": "alice-seed"}).stock == state.stock
    assert player_view(state, 0)["shuffle"] is None


def test_a_stacked_first_hand_is_not_fair_but_the_next_ones_are() -> None:
    deck = stacked("AS 2S 3S 4S 5S 6S 7S 8S 9S TS", "AH 2H 3H 4H 5H 6H 7H 8H 9H TH", "KC")
    state = new_match(STANDARD, seed=SECRET, deck=deck, fair=True)
    assert player_view(state, 0)["shuffle"] is None
    assert apply(state, 0, {"type": "pass", "seed": "alice-seed"}).stock == state.stock
    state = _play_to_hand_end(state, random.Random(1))
    state = apply(state, 0, {"type": "next_hand"})
    assert player_view(state, 0)["shuffle"]["hand_number"] == 2


def test_the_commitment_stays_for_the_whole_hand_and_no_view_holds_a_seed() -> None:
    """Every view of a hand, to either seat and a watcher, shows the same commitment, says
    who cut, and holds neither the server seed, the match secret nor a player's seed."""
    for match in range(20):
        rng = random.Random(match)
        secret = f"secret-{match}"
        state = new_match(STANDARD, seed=secret, fair=True)
        seen: dict[int, set[str]] = {}
        while state.phase != "match_over" and state.version < 400:
            server = fair.server_seed(secret, state.hand_number)
            for view in (player_view(state, 0), player_view(state, 1), spectator_view(state)):
                text = json.dumps(view)
                assert server not in text and secret not in text
                assert "cut-seed" not in text
                if state.phase != "hand_over":
                    shuffle = view["shuffle"]
                    assert shuffle["commitment"] == fair.commitment(server)
                    seen.setdefault(state.hand_number, set()).add(shuffle["commitment"])
                    assert shuffle["seeded"] == [s is not None for s in state.seeded]
            seat = state.to_act if state.to_act is not None else 0
            action = dict(rng.choice(legal_actions(state, seat)))
            action["seed"] = f"cut-seed-{seat}-{state.hand_number}"
            state = apply(state, seat, action)
        assert all(len(commitments) == 1 for commitments in seen.values())


def _play_to_hand_end(state, rng: random.Random):  # type: ignore[no-untyped-def]
    while state.phase not in ("hand_over", "match_over"):
        legal = legal_actions(state, state.to_act)
        enders = [a for a in legal if a["type"] in ("knock", "gin", "big_gin")]
        state = apply(state, state.to_act, rng.choice(enders or legal))
    return state
