"""The settlement at match end (RULES.md: The match; game_bonus, box_bonus, shutout_double)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from games.engine import Ruleset
from tests.engine.helpers import CLASSIC, SIMPLE, STANDARD, deal, end_hand, play, spare_cards

# Gin for 25 + 98 = 123 in one hand (see test_match_end).
GIN_TEN = "AS 2S 3S 7C 7D 7S 4H 5H 6H 7H"
DEFENDER_98 = "TC QC TH QH JD KD JS KS 9C 9D"
# Seat 0 knocks with 10 against 71: 61 to seat 0.
KNOCKER_10 = "9H TH JH QH KH 7C 7D 7H 6C 4D"
DEFENDER_71 = "2C 3D 4H 5S 8C 9D TC JD QS KC"
# Seat 1 undercuts the same knock with 7: 10 - 7 + 25 = 28 (standard) to seat 1.
DEFENDER_7 = "AS 2S 3S 4S 5C 5D 5S 2C 2D 3C"


def settled_shutout(rules: Ruleset) -> dict[str, Any]:
    state = end_hand("gin", GIN_TEN, DEFENDER_98, rules=rules)
    assert state.phase == "match_over" and state.settlement is not None
    return state.settlement


def settled_from(
    rules: Ruleset, scores: tuple[int, int], hands_won: tuple[int, int], defender: str
) -> dict[str, Any]:
    """A match already at ``scores`` with ``hands_won``, ended by seat 0 knocking with 10."""
    upcard, drawn = spare_cards(KNOCKER_10, defender)
    state = deal(KNOCKER_10, defender, upcard, drawn, rules=rules)
    state = dataclasses.replace(state, scores=scores, hands_won=hands_won)
    state = play(state, "0 pass", "1 pass", "0 draw stock", f"0 knock {drawn}")
    assert state.phase == "match_over" and state.settlement is not None
    return state.settlement


def test_it_settles_a_standard_shutout_doubled() -> None:
    # 123 + game 100 + one box 25 = 248 against 0; the loser never scored: 248 * 2 = 496.
    assert settled_shutout(STANDARD) == {
        "winner": 0,
        "loser": 1,
        "scores": [123, 0],
        "game_bonus": 100,
        "box_bonus": 25,
        "hands_won": [1, 0],
        "boxes": [25, 0],
        "tallies": [248, 0],
        "shutout": True,
        "doubled": True,
        "net": 496,
    }


def test_it_settles_a_classic_shutout_doubled() -> None:
    # 123 + game 100 + no boxes = 223; doubled: 446.
    settlement = settled_shutout(CLASSIC)
    assert settlement["boxes"] == [0, 0]
    assert settlement["tallies"] == [223, 0]
    assert settlement["shutout"] is True
    assert settlement["doubled"] is True
    assert settlement["net"] == 446


def test_it_does_not_double_a_simple_shutout() -> None:
    # No game or box bonus: 123; shutout, but simple does not double.
    settlement = settled_shutout(SIMPLE)
    assert settlement["game_bonus"] == 0
    assert settlement["box_bonus"] == 0
    assert settlement["tallies"] == [123, 0]
    assert settlement["shutout"] is True
    assert settlement["doubled"] is False
    assert settlement["net"] == 123


@pytest.mark.parametrize(
    ("rules", "boxes", "tallies", "net"),
    [
        # 60 + 61 = 121, three hands won to one.
        # standard: 121 + 100 + 3 * 25 = 296 against 30 + 1 * 25 = 55; 296 - 55 = 241
        (STANDARD, [75, 25], [296, 55], 241),
        # classic: 121 + 100 = 221 against 30; 191
        (CLASSIC, [0, 0], [221, 30], 191),
        # simple: 121 against 30; 91
        (SIMPLE, [0, 0], [121, 30], 91),
    ],
    ids=["standard", "classic", "simple"],
)
def test_it_gives_each_side_a_box_for_every_hand_it_won(
    rules: Ruleset, boxes: list[int], tallies: list[int], net: int
) -> None:
    settlement = settled_from(rules, (60, 30), (2, 1), DEFENDER_71)
    assert settlement["scores"] == [121, 30]
    assert settlement["hands_won"] == [3, 1]
    assert settlement["boxes"] == boxes
    assert settlement["tallies"] == tallies
    assert settlement["shutout"] is False
    assert settlement["doubled"] is False
    assert settlement["net"] == net


def test_it_settles_for_seat_1_when_seat_1_wins() -> None:
    # Seat 1 at 90 undercuts for 28: 118. Hands won 1 and 4.
    # Seat 1: 118 + 100 + 4 * 25 = 318; seat 0: 30 + 1 * 25 = 55; net 263.
    settlement = settled_from(STANDARD, (30, 90), (1, 3), DEFENDER_7)
    assert settlement["winner"] == 1
    assert settlement["loser"] == 0
    assert settlement["scores"] == [30, 118]
    assert settlement["boxes"] == [25, 100]
    assert settlement["tallies"] == [55, 318]
    assert settlement["net"] == 263
