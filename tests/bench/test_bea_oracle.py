"""bench.bea_oracle: the expert told what no player sees, as a bound. Told nothing she plays
exactly as ``bea:expert``; told the hand, her guesses are the opponent's real cards; the opponent
is never told; and the game's Bea is untouched once the block ends."""

from __future__ import annotations

import random

from bench import bea_oracle
from games.ai import arena, bea, knowledge
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
