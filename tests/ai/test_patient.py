"""The patient arena player: early knocks only in its first three turns, then only at 4 or less,
and it does not feed a card the opponent is known to hold."""

from __future__ import annotations

import random
from typing import Any

from games.ai import baseline, patient
from games.engine import PRESETS, apply, new_match, player_view
from games.engine.cards import mask_of
from games.engine.melds import deadwood_of_mask
from tests.engine.helpers import deal, play

SIMPLE = PRESETS["simple"]
BEFORE_TURN_4 = (
    "0 pass",
    "1 pass",
    "0 draw stock",
    "0 discard KD",
    "1 draw stock",
    "1 discard QS",
    "0 draw stock",
    "0 discard QC",
    "1 draw stock",
    "1 discard JS",
    "0 draw stock",
    "0 discard JC",
    "1 draw stock",
    "1 discard TS",
    "0 draw stock",
)


def hand_of(loose: str) -> str:
    return f"AS 2S 3S 4H 5H 6H 9C 9D 9H {loose}"


def patient_view(p0: str, *moves: str) -> dict[str, Any]:
    state = deal(
        p0,
        "2C 4C 6C 8C TC 3D 5D 8D TD QH",
        "KH",
        "KD QS QC JS JC TS KS",
        rules=SIMPLE,
    )
    return player_view(play(state, *moves), 0)


def test_it_knocks_at_the_first_chance_in_its_first_turn() -> None:
    view = patient_view(hand_of("7D"), "0 pass", "1 pass", "0 draw stock")
    assert patient.turn_of(view) == 1
    assert patient.choose(view, random.Random(1)) == {"type": "knock", "card": "KD"}


def test_it_holds_a_seven_from_its_fourth_turn() -> None:
    view = patient_view(hand_of("7D"), *BEFORE_TURN_4)
    assert patient.turn_of(view) == 4
    assert {"type": "knock", "card": "KS"} in view["legal_actions"]
    assert patient.choose(view, random.Random(1)) == {"type": "discard", "card": "KS"}


def test_it_knocks_with_four_from_its_fourth_turn() -> None:
    view = patient_view(hand_of("4D"), *BEFORE_TURN_4)
    assert patient.choose(view, random.Random(1)) == {"type": "knock", "card": "KS"}


def loose_view(taken: str) -> dict[str, Any]:
    """Seat 0 holds two melds and five loose cards, KC the costliest and 8D next; seat 1 took
    ``taken`` (the upcard) and holds it."""
    state = deal(
        "AS 2S 3S 9C 9D 9H KC 8D 7C 5D",
        "2C 4C 6C 8C TC 3D 6D JD TD 4H",
        taken,
        "2H",
        rules=SIMPLE,
    )
    state = play(state, "0 pass", "1 take", "1 discard 2C", "0 draw stock")
    view = player_view(state, 0)
    assert view["known_opponent_cards"] == [taken]
    return view


def test_it_never_throws_a_card_that_melds_with_one_the_opponent_holds() -> None:
    # KC leaves 2 points less deadwood than 8D, and is thrown unless the opponent holds a king.
    for seed in range(12):
        assert patient.choose(loose_view("QH"), random.Random(seed)) == {
            "type": "discard",
            "card": "KC",
        }
        assert patient.choose(loose_view("KH"), random.Random(seed)) == {
            "type": "discard",
            "card": "8D",
        }


def test_it_keeps_its_knocking_rule_through_whole_matches() -> None:
    knocks = 0
    for index in range(2):
        state = new_match(SIMPLE, seed=index)
        rngs = [random.Random(index), random.Random(index + 100)]
        while state.phase != "match_over":
            seat = 0 if state.phase == "hand_over" else state.to_act
            assert seat is not None
            view = player_view(state, seat)
            if seat == index % 2 and state.phase != "hand_over":
                action = patient.choose(view, rngs[0])
                if action["type"] == "knock":
                    knocks += 1
                    left = deadwood_of_mask(mask_of(view["hand"]) & ~mask_of([action["card"]]))
                    assert patient.turn_of(view) <= 3 or left <= 4, (view["moves"], action)
            else:
                action = baseline.choose(view, rngs[1])
            state = apply(state, seat, action)
    assert knocks
