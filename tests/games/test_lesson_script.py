"""The lesson's story, played through the engine: every scripted move is legal, each hand ends
the way the panel says, and every card and number the panel quotes is the engine's."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from games.engine import (
    IllegalAction,
    apply,
    best_arrangement,
    discard_deadwoods,
    display,
    legal_actions,
    player_view,
)
from games.lesson import hooks, panel, script
from games.lesson.script import BEA, DECK, LEARNER, SCRIPT, new_lesson, story


def played() -> dict[str, object]:
    """The lesson's states by position, played from its first deal."""
    state = new_lesson()
    states = {}
    while True:
        where = script.position(state.hand_number, len(state.moves), state.phase)
        states[where.key] = state
        move = where.next_move
        if move is None:
            return states
        assert move.action in legal_actions(state, move.seat), (where.key, move)
        state = apply(state, move.seat, move.action)


def test_every_scripted_move_is_legal_and_the_lesson_ends_after_two_hands():
    states = played()
    assert list(states) == list(story())
    final = states["2.end"]
    assert final.phase == "hand_over" and final.hand_number == 2
    # The match goes on after the lesson (nobody reached the target): the lesson just stops.
    assert max(final.scores) < final.rules.target


def test_the_first_hand_the_learner_knocks_and_bea_lays_off_three_cards():
    last = story()["1.end"]["last_hand"]
    assert last["kind"] == "knock"
    assert last["knocker"] == LEARNER and last["winner"] == LEARNER
    assert sorted(item["card"] for item in last["layoffs"]) == ["4H", "5C", "9H"]
    assert last["deadwood"][BEA] > last["deadwood"][LEARNER]


def test_the_second_hand_bea_knocks_and_a_layoff_makes_it_the_learners_undercut():
    view = story()["2.end"]
    last = view["last_hand"]
    assert last["kind"] == "undercut"
    assert last["knocker"] == BEA and last["winner"] == LEARNER
    laid = [item["card"] for item in last["layoffs"]]
    assert laid == ["7H"]
    # Without the layoff there would be no undercut: it is what the hand teaches.
    without = best_arrangement(last["hands"][LEARNER]).deadwood
    assert without > last["deadwood"][BEA] >= last["deadwood"][LEARNER]


def test_bea_passes_an_upcard_that_is_no_use_to_her():
    state = played()["2.0"]
    upcard = state.discard[-1]
    with_it = best_arrangement([*state.hands[BEA], upcard])
    assert not any(upcard in meld for meld in with_it.melds)


@pytest.mark.parametrize("key", ["1.1", "1.5", "2.2"])
def test_the_learner_cannot_knock_before_the_step_that_asks_for_it(key: str):
    kinds = {a["type"] for a in legal_actions(played()[key], LEARNER)}
    assert "knock" not in kinds and "gin" not in kinds


def test_the_learner_can_knock_at_the_knock_step():
    assert {"type": "knock", "card": "JS"} in legal_actions(played()["1.9"], LEARNER)


def test_the_deck_deals_the_first_hand_the_script_names():
    state = new_lesson()
    assert list(state.hands[LEARNER]) == list(DECK[0:10])
    assert state.discard == ("9D",)
    assert len(DECK) == 52 == len(set(DECK))


def test_admit_refuses_any_other_move_and_keeps_the_pages_seed_out():
    state = new_lesson()
    with pytest.raises(IllegalAction, match="Not that move in this lesson. Take the 9♦."):
        hooks.admit(state, LEARNER, {"type": "pass"})
    with pytest.raises(IllegalAction, match="Wait for Bea"):
        hooks.admit(state, BEA, {"type": "pass"})
    admitted = hooks.admit(state, LEARNER, {"type": "take_upcard", "seed": "abc"})
    assert admitted == {"type": "take_upcard"}


def test_admit_refuses_the_next_hand_once_the_lesson_is_over():
    with pytest.raises(IllegalAction, match="The lesson is over"):
        hooks.admit(played()["2.end"], LEARNER, {"type": "next_hand"})


def test_bea_chooses_the_scripted_move_from_her_own_view():
    for key, state in played().items():
        move = script.position(state.hand_number, len(state.moves), state.phase).next_move
        if move is not None and move.seat == BEA:
            assert script.choose(player_view(state, BEA)) == move.action, key


# --- The panel's words quote the engine -------------------------------------------------------


def numbers(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", re.sub(r"\d+[♣♦♥♠]", "", text))]


def words(key: str, language: str = "en") -> str:
    with translation.override(language):
        shown = panel.panel(story()[key])
    return " ".join((shown["said"], shown["ask"], shown["why"], shown["bea"]))


def test_the_deal_step_quotes_the_dealt_hands_deadwood():
    dealt = best_arrangement(list(DECK[0:10])).deadwood
    assert str(dealt) in words("1.0")
    assert "Take the 9♦." in words("1.0")


@pytest.mark.parametrize("key", ["1.1", "1.5", "2.2"])
def test_a_discard_step_quotes_the_deadwood_after_the_scripted_discard(key: str):
    state = played()[key]
    hand, index = key.split(".")
    card = SCRIPT[int(hand)][int(index)].action["card"]
    after = dict(discard_deadwoods(list(state.hands[LEARNER])))[card]
    now = best_arrangement(list(state.hands[LEARNER])).deadwood
    assert {after, now} <= set(numbers(words(key)))
    assert f"Discard the {display(card)}." in words(key)


def test_the_results_quote_the_engines_scores():
    first = story()["1.end"]["last_hand"]
    text = words("1.end")
    assert f"{first['deadwood'][BEA]} − {first['deadwood'][LEARNER]} = {first['points']}" in text
    second = story()["2.end"]
    last = second["last_hand"]
    bonus = second["rules"]["undercut_bonus"]
    expected = f"{last['deadwood'][BEA]} − {last['deadwood'][LEARNER]} + {bonus} = {last['points']}"
    assert expected in words("2.end")


def test_while_bea_plays_the_panel_tells_nothing_of_her_next_move():
    shown = panel.panel(story()["2.3"])
    assert shown["ask"] == "" and shown["why"] == ""
    assert "knock" in shown["bea"]
    assert "undercut" not in words("2.3")


def test_the_panel_counts_the_learners_steps():
    shown = [panel.panel(view) for view in story().values()]
    assert [s["number"] for s in shown if not s["bea"]] == list(range(1, len(panel.STEPS) + 1))
    assert all(s["total"] == len(panel.STEPS) for s in shown)


def test_the_german_panel_has_the_same_numbers_and_no_english_sentence():
    for key in panel.STEPS:
        english, german = words(key, "en"), words(key, "de")
        assert numbers(english) == numbers(german), key
        for phrase in ("deadwood", "Discard the", "Take the", "Bea's turn", "Well played"):
            assert phrase not in german, (key, phrase)
