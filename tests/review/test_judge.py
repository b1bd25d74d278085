"""Bea's judgement of one decision (games.ai.judge) on hand-made hands whose right review is
known, judged from the mover's view alone."""

from __future__ import annotations

import random
import re

import pytest
from django.utils import translation

from games.ai import choose
from games.ai.judge import judge
from games.engine import PRESETS, MatchState, apply, new_match, player_view
from games.engine.cards import ALL_CARDS, display
from games.review import marks, words
from tests.engine.helpers import action, stacked

from .positions import (
    FEEDS_GIN,
    FEEDS_GIN_AT,
    FEEDS_GIN_DECK,
    UNDERCUT,
    UNDERCUT_AT,
    UNDERCUT_DECK,
)


def before(deck: list[str], moves: tuple[str, ...], at: int) -> tuple[MatchState, dict]:
    """The state before the ``at``-th move, and that move's action."""
    state = new_match(PRESETS["standard"], deck=deck)
    for text in moves[: at - 1]:
        seat, move = action(text)
        state = apply(state, seat, move)
    return state, action(moves[at - 1])[1]


def played_out(deck: list[str], moves: tuple[str, ...]) -> MatchState:
    state = new_match(PRESETS["standard"], deck=deck)
    for text in moves:
        seat, move = action(text)
        state = apply(state, seat, move)
    return state


def test_it_calls_a_discard_that_completes_a_meld_it_saw_taken_a_blunder():
    assert played_out(FEEDS_GIN_DECK, FEEDS_GIN).last_hand["kind"] == "gin"
    state, move = before(FEEDS_GIN_DECK, FEEDS_GIN, FEEDS_GIN_AT)
    assert move == {"type": "discard", "card": "JD"}
    for seed in range(3):
        judged = judge(player_view(state, 0), move, random.Random(seed))
        assert judged["kind"] == "discard" and judged["played"] == move
        # A king instead: bob threw K♦ and K♥, and alice cannot knock either way.
        assert judged["bea"] in (
            {"type": "discard", "card": "KC"},
            {"type": "discard", "card": "KS"},
        )
        assert marks.mark(judged["cost"]) == "blunder", judged
    assert words.text(judged).startswith(
        f"Blunder: Bea would have thrown {display(judged['bea']['card'])}. That cost about "
    )


def test_it_calls_a_knock_into_a_certain_undercut_at_least_a_mistake():
    assert played_out(UNDERCUT_DECK, UNDERCUT).last_hand["kind"] == "undercut"
    state, move = before(UNDERCUT_DECK, UNDERCUT, UNDERCUT_AT)
    assert move == {"type": "knock", "card": "JS"}
    for seed in range(3):
        judged = judge(player_view(state, 0), move, random.Random(seed))
        assert judged["bea"]["type"] == "discard", judged  # she holds on
        assert judged["cost"] >= marks.MISTAKE, judged
    assert "Bea would have held on and thrown" in words.text(judged)


def test_the_same_choice_as_bea_costs_nothing():
    state, move = before(UNDERCUT_DECK, UNDERCUT, 1)  # passing on 5♠, which melds with nothing
    judged = judge(player_view(state, 0), move, random.Random(0))
    assert judged == {
        "kind": "take",
        "played": {"type": "pass"},
        "bea": {"type": "pass"},
        "cost": 0.0,
        "upcard": "5S",
    }
    assert words.text(judged) == "Bea would have done the same."
    assert marks.accuracy(0.0) == 100.0


def test_a_forced_draw_is_no_decision():
    state, move = before(UNDERCUT_DECK, UNDERCUT, 3)  # both passed: the stock it is
    assert judge(player_view(state, 0), move, random.Random(0)) is None


def test_what_the_player_could_not_see_changes_nothing():
    """Bob's hidden card and the stock below alice's draws, changed: the same judgement."""
    other = stacked(
        " ".join(FEEDS_GIN_DECK[:10]),
        " ".join(["6H", *FEEDS_GIN_DECK[11:20]]),
        FEEDS_GIN_DECK[20],
        " ".join([*FEEDS_GIN_DECK[21:30], "8D"]),
    )
    assert other[10] != FEEDS_GIN_DECK[10] and other[30:32] != FEEDS_GIN_DECK[30:32]
    for at in (5, FEEDS_GIN_AT):
        first, move = before(FEEDS_GIN_DECK, FEEDS_GIN, at)
        second, _ = before(other, FEEDS_GIN, at)
        assert first.hands[1] != second.hands[1]
        assert player_view(first, 0) == player_view(second, 0)
        assert judge(player_view(first, 0), move, random.Random(7)) == judge(
            player_view(second, 0), move, random.Random(7)
        )


def _cards_named(text: str) -> set[str]:
    """The cards a text names, by their glyphs (10♦, K♠...)."""
    glyphs = {display(code): code for code in ALL_CARDS}
    return {glyphs[g] for g in re.findall(r"(?:10|[A2-9JQK])[♣♦♥♠]", text)}


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_words_name_no_card_the_player_could_not_see(language: str):
    """Self-play matches judged move by move: every card a judgement holds or names is in the
    mover's hand or on the pile at that moment."""
    judged_count = 0
    for seed in range(2):
        state = new_match(PRESETS["simple"], seed=f"leak:{seed}")
        rng = random.Random(seed)
        while state.phase != "match_over" and judged_count < 120:
            if state.phase == "hand_over":
                state = apply(state, 0, {"type": "next_hand"})
                continue
            seat = state.to_act
            view = player_view(state, seat)
            move = choose(view, ("medium", "expert")[seat], rng)
            judged = judge(view, move, random.Random(judged_count))
            if judged is not None:
                judged_count += 1
                seen = set(view["hand"]) | set(view["discard_pile"])
                held = {v for k, v in _flat(judged) if k in ("card", "upcard", "top")}
                assert held <= seen, (judged, seen)
                with translation.override(language):
                    assert _cards_named(words.text(judged)) <= seen
            state = apply(state, seat, move)
    assert judged_count >= 100


def _flat(node: object, key: str = "") -> list[tuple[str, object]]:
    if isinstance(node, dict):
        return [pair for k, v in node.items() for pair in _flat(v, k)]
    return [(key, node)]
