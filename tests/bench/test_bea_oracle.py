"""bench.bea_oracle: the expert told what no player sees, as a bound. Told nothing she plays
exactly as ``bea:expert``; told the hand, her guesses are the opponent's real cards; the opponent
is never told; and the game's Bea is untouched once the block ends."""

from __future__ import annotations

import argparse
import random

import pytest

from bench import bea_oracle
from games.ai import arena, bea, knowledge
from games.ai.baseline import melds_with
from games.engine import PRESETS, apply, new_match
from games.engine.cards import mask_of


def _outcome(summary: arena.Summary) -> tuple[list[int], ...]:
    return (summary.wins, summary.points, summary.knocks, [summary.hands])


def test_told_nothing_she_plays_as_the_expert() -> None:
    told = bea_oracle.measure("nothing", "baseline", 2, seed=11, processes=1)
    plain = arena.run("bea:expert", "baseline", 2, seed=11, processes=1)
    assert _outcome(told) == _outcome(plain)


def _discard_view() -> tuple[dict, int]:
    """A view of seat 0 with eleven cards, and the opponent's real hand then."""
    state = new_match(PRESETS["simple"], seed=5)
    while state.phase != "discard" or state.to_act != 0:
        action = {"upcard_offer": {"type": "pass"}, "draw": {"type": "draw", "from": "stock"}}
        if state.phase in action:
            state = apply(state, state.to_act, action[state.phase])
        else:
            card = state.hands[state.to_act][0]
            state = apply(state, state.to_act, {"type": "discard", "card": card})
    return arena.player_view(state, 0), mask_of(state.hands[1])


def test_told_the_hand_her_guesses_are_the_real_cards_and_only_hers() -> None:
    original = (bea.sample_opponent, knowledge.read, knowledge.danger, arena.make_player)
    with bea_oracle.told("hand"):
        view, theirs = _discard_view()
        expert = arena.make_player(bea_oracle.SPEC, "1")
        seen: list[int] = []
        guess = bea.sample_opponent

        def record(known: knowledge.Knowledge, rng: random.Random) -> int:
            seen.append(guess(known, rng))
            return seen[-1]

        bea.sample_opponent = record
        try:
            assert expert(view) in view["legal_actions"]
        finally:
            bea.sample_opponent = guess
        # While she decides, every sampled hand is theirs ...
        assert seen and set(seen) == {theirs}
        # ... and outside her decision (the opponent's), nothing is told.
        known = knowledge.read(view)
        assert known.p_opp != [1.0 if theirs >> i & 1 else 0.0 for i in range(52)]
        rng = random.Random(3)
        assert bea.sample_opponent(known, rng) == original[0](known, random.Random(3))
        hand = view["hand"]
        dangers = [knowledge.danger(known, bea.INDEX[c]) for c in hand]
        assert dangers == [original[2](known, bea.INDEX[c]) for c in hand]
        assert any(0 < d < 1 for d in dangers)
    assert (bea.sample_opponent, knowledge.read, knowledge.danger, arena.make_player) == original


def test_a_clue_of_the_danger_moves_her_guess_towards_the_truth_as_far_as_its_strength() -> None:
    view, theirs = _discard_view()
    known = knowledge.read(view)
    cards = [bea.INDEX[c] for c in view["hand"]]
    own = [knowledge.danger(known, i) for i in cards]
    truth = [melds_with(theirs, i) for i in cards]
    weighed = {}
    for strength in ("0", "1", "8"):
        with bea_oracle.told(f"danger~{strength}"):
            bea_oracle._told["hand"] = theirs  # as while she decides
            weighed[strength] = [knowledge.danger(known, i) for i in cards]
            bea_oracle._told["hand"] = None
            assert [knowledge.danger(known, i) for i in cards] == own  # outside her decision
    assert weighed["0"] == pytest.approx(own)  # no clue: her own guess
    # A strong clue all but says which cards they can meld; a weak one leaves her in doubt.
    assert [round(d) for d in weighed["8"]] == [int(m) for m in truth]
    assert any(0.05 < d < 0.95 for d in weighed["1"])
    assert bea_oracle.auc(list(zip(weighed["8"], truth, strict=True))) == 1.0


def test_the_auc_counts_pairs_in_order_and_ties_as_half() -> None:
    assert bea_oracle.auc([(0.1, False), (0.9, True)]) == 1.0
    assert bea_oracle.auc([(0.9, False), (0.1, True)]) == 0.0
    assert bea_oracle.auc([(0.5, False), (0.5, True), (0.7, True), (0.2, False)]) == 0.875


def test_only_the_danger_takes_a_clue() -> None:
    assert bea_oracle.known_as("danger~0.5") == "danger~0.5"
    for wrong in ("samples~1", "danger~much", "everything"):
        with pytest.raises(argparse.ArgumentTypeError):
            bea_oracle.known_as(wrong)
