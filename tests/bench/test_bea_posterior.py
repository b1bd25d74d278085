"""bench.bea_posterior: the opponent's hand from the whole log under a model of their policy.
Against the baseline, whose policy the model is, the hands it gives them explain the log: never a
card Bea has seen, every card they took and still hold, no hand they could have knocked with
after a plain discard, the partners of a card they took. And measuring leaves the expert playing
as ``bea:expert``."""

from __future__ import annotations

import random

from bench import bea_posterior
from bench.bea_posterior import Policy
from games.ai import arena, baseline, knowledge
from games.ai.baseline import melds_with
from games.engine import PRESETS, apply, new_match
from games.engine.cards import INDEX, mask_of
from games.engine.melds import deadwood_of_mask

# Rules the log of a baseline never breaks are all but certain.
STRICT = Policy(eps=1e-9)


def _positions(seed: int) -> list[dict]:
    """Seat 0's views at its discards in one hand of two baseline players."""
    state = new_match(PRESETS["simple"], seed=seed)
    rngs = [random.Random(f"{seed}:0"), random.Random(f"{seed}:1")]
    views = []
    while state.phase not in ("hand_over", "match_over"):
        seat = state.to_act
        view = arena.player_view(state, seat)
        if seat == 0 and state.phase == "discard":
            views.append(view)
        state = apply(state, seat, baseline.choose(view, rngs[seat]))
    return views


def _likely(hands: list[tuple[int, float]]) -> list[int]:
    return [hand for hand, weight in hands if weight > 1e-3]


def test_the_hands_it_gives_them_explain_the_log() -> None:
    checked_knock = checked_take = 0
    for seed in (5, 7):
        for view in _positions(seed):
            hands = bea_posterior.posterior(view, STRICT, 100, 10, random.Random(1), moves=10)
            assert abs(sum(w for _, w in hands) - 1) < 1e-9
            held = mask_of(view["known_opponent_cards"])
            seen = mask_of(view["hand"]) | mask_of(view["discard_pile"])
            seen |= mask_of([m["card"] for m in view["moves"] if m["seat"] == 0 and "card" in m])
            seen &= ~held
            theirs = [m for m in view["moves"] if m["seat"] == 1]
            last = theirs[-1] if theirs else None
            took = next((m["card"] for m in reversed(theirs) if m.get("source") == "discard"), None)
            for hand in _likely(hands):
                assert hand.bit_count() == view["opponent_card_count"]
                assert not hand & seen
                assert hand & held == held
                if last and last["type"] == "discard":
                    # They threw without knocking: what is left could not knock.
                    assert deadwood_of_mask(hand) > 10
                    checked_knock += 1
            # The card they took last, if they still hold it, melds with what they hold.
            if took and took in view["known_opponent_cards"]:
                for hand in _likely(hands):
                    assert melds_with(hand & ~(1 << INDEX[took]), INDEX[took])
                    checked_take += 1
    assert checked_knock and checked_take


def test_a_player_the_model_misjudges_thins_the_posterior_but_leaves_hands() -> None:
    # Seat 1 throws its first card every turn, whatever it holds: the model is wrong about it.
    state = new_match(PRESETS["simple"], seed=8)
    for _ in range(12):
        seat = state.to_act
        if state.phase == "upcard_offer":
            action = {"type": "pass"}
        elif state.phase == "draw":
            action = {"type": "draw", "from": "stock"}
        else:
            action = {"type": "discard", "card": state.hands[seat][0]}
        state = apply(state, seat, action)
    view = arena.player_view(state, 0)
    hands = bea_posterior.posterior(view, Policy(), 40, 5, random.Random(2))
    assert len(_likely(hands)) >= 1
    assert all(not hand & mask_of(view["hand"]) for hand, _ in hands)


def test_measuring_leaves_her_playing_as_the_expert_and_puts_everything_back() -> None:
    read, estimate = knowledge.read, knowledge.danger
    measured = bea_posterior.measure("baseline", 1, 11, Policy(), particles=10, sweeps=1)
    assert (knowledge.read, knowledge.danger) == (read, estimate)
    assert measured.positions and measured.rows
    # Her own estimates decided, and some of the cards she weighed the baseline could meld.
    assert all(0 <= mine <= 1 and 0 <= theirs <= 1 for mine, theirs, _, _ in measured.rows)
    assert any(melds for _, _, melds, _ in measured.rows)
    plain = arena.run("bea:expert", "baseline", 1, seed=11, processes=1)
    assert measured.summary is not None
    assert (measured.summary.wins, measured.summary.points) == (plain.wins, plain.points)
