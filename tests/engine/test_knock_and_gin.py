"""Knocking and gin (RULES.md: A turn; End of hand: scoring a knock, gin)."""

from __future__ import annotations

import dataclasses

from games.engine import legal_actions
from tests.engine.helpers import STANDARD, deal, end_hand, play, refused, spare_cards

# Runs 9H-KH and the sevens; 6C + 4D = 10 deadwood: exactly the knock limit.
KNOCKER_AT_LIMIT = "9H TH JH QH KH 7C 7D 7H 6C 4D"
# The same melds with 6C + 5D = 11: one over the limit.
KNOCKER_OVER_LIMIT = "9H TH JH QH KH 7C 7D 7H 6C 5D"
# No meld and nothing to lay off (8H and 7S are elsewhere):
# 2 + 3 + 4 + 5 + 8 + 9 + 10 + 10 + 10 + 10 = 71
DEFENDER_71 = "2C 3D 4H 5S 8C 9D TC JD QS KC"

# All melded: AS-2S-3S, the sevens, 9H-QH.
GIN_TEN = "AS 2S 3S 7C 7D 7H 9H TH JH QH"
# Melds 2C-3C-4C; 4S 5S 7S 8H 5D 8C 9D = 4 + 5 + 7 + 8 + 5 + 8 + 9 = 46 left. Against a knock
# 4S, 5S (onto AS-3S), 7S (onto the sevens) and 8H (onto 9H-QH) could be laid off.
DEFENDER_46 = "4S 5S 7S 8H 2C 3C 4C 5D 8C 9D"


def test_it_allows_a_knock_at_exactly_the_knock_limit() -> None:
    state = end_hand("knock", KNOCKER_AT_LIMIT, DEFENDER_71)
    last = state.last_hand
    assert last is not None
    assert last["kind"] == "knock"
    assert last["knocker"] == 0
    assert last["deadwood"] == [10, 71]
    # 71 - 10 = 61 to the knocker
    assert last["winner"] == 0
    assert last["points"] == 61
    assert state.scores == (61, 0)
    assert state.hands_won == (1, 0)
    assert state.phase == "hand_over"


def test_it_refuses_a_knock_over_the_knock_limit() -> None:
    state = deal(KNOCKER_OVER_LIMIT, DEFENDER_71, "AC", "JC")
    state = play(state, "0 pass", "1 pass", "0 draw stock")
    # Throwing JC leaves 6 + 5 = 11; 6C leaves 5 + 10 = 15; 5D leaves 6 + 10 = 16.
    reason = refused(state, 0, {"type": "knock", "card": "JC"})
    assert "11" in reason and "10" in reason
    assert not [a for a in legal_actions(state, 0) if a["type"] == "knock"]


def test_it_follows_the_knock_limit_option() -> None:
    rules = dataclasses.replace(STANDARD, knock_limit=5)
    upcard, drawn = spare_cards(KNOCKER_AT_LIMIT, DEFENDER_71)
    state = deal(KNOCKER_AT_LIMIT, DEFENDER_71, upcard, drawn, rules=rules)
    state = play(state, "0 pass", "1 pass", "0 draw stock")
    reason = refused(state, 0, {"type": "knock", "card": drawn})
    assert "limit is 5" in reason


def test_it_never_forces_a_knock() -> None:
    upcard, drawn = spare_cards(GIN_TEN, DEFENDER_46)
    state = play(deal(GIN_TEN, DEFENDER_46, upcard, drawn), "0 pass", "1 pass", "0 draw stock")
    assert {"type": "gin", "card": drawn} in legal_actions(state, 0)
    state = play(state, f"0 discard {drawn}")
    assert state.phase == "draw"
    assert state.to_act == 1


def test_it_scores_gin_as_the_gin_bonus_plus_the_defenders_deadwood_without_layoffs() -> None:
    state = end_hand("gin", GIN_TEN, DEFENDER_46)
    last = state.last_hand
    assert last is not None
    assert last["kind"] == "gin"
    assert last["layoffs"] == []
    assert last["melds"][1] == [["2C", "3C", "4C"]]
    assert last["deadwood"] == [0, 46]
    # 25 + 46 = 71
    assert last["points"] == 71
    assert last["winner"] == 0
    assert state.scores == (71, 0)


def test_it_counts_a_knock_with_no_deadwood_as_gin() -> None:
    state = end_hand("knock", GIN_TEN, DEFENDER_46)
    last = state.last_hand
    assert last is not None
    assert last["kind"] == "gin"
    assert last["layoffs"] == []
    assert last["points"] == 25 + 46


def test_it_follows_the_gin_bonus_option() -> None:
    rules = dataclasses.replace(STANDARD, gin_bonus=20)
    state = end_hand("gin", GIN_TEN, DEFENDER_46, rules=rules)
    assert state.last_hand is not None
    assert state.last_hand["points"] == 20 + 46


def test_it_refuses_a_false_gin() -> None:
    upcard, drawn = spare_cards(KNOCKER_AT_LIMIT, DEFENDER_71)
    state = play(deal(KNOCKER_AT_LIMIT, DEFENDER_71, upcard, drawn), "0 pass", "1 pass")
    state = play(state, "0 draw stock")
    reason = refused(state, 0, {"type": "gin", "card": drawn})
    assert "not gin" in reason and "10" in reason


def test_it_offers_a_knock_with_each_discard_that_allows_one() -> None:
    state = deal(KNOCKER_AT_LIMIT, DEFENDER_71, "AC", "3C")
    state = play(state, "0 pass", "1 pass", "0 draw stock")
    # Eleven cards: 9H-KH, the sevens, 6C 4D 3C. Throwing 3C leaves 6 + 4 = 10, 6C leaves
    # 4 + 3 = 7, 4D leaves 6 + 3 = 9. Throwing 9H or KH keeps a four-card run but leaves
    # 6 + 4 + 3 = 13; throwing a seven leaves 7 + 7 + 13 = 27.
    knocks = {a["card"] for a in legal_actions(state, 0) if a["type"] == "knock"}
    assert knocks == {"3C", "6C", "4D"}
    assert not [a for a in legal_actions(state, 0) if a["type"] == "gin"]


def test_it_keeps_the_hand_history_without_cards() -> None:
    state = end_hand("knock", KNOCKER_AT_LIMIT, DEFENDER_71)
    assert state.history == (
        {
            "hand_number": 1,
            "kind": "knock",
            "knocker": 0,
            "winner": 0,
            "points": 61,
            "deadwood": [10, 71],
        },
    )
