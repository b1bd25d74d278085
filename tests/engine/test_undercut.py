"""Undercuts (RULES.md: End of hand, scoring a knock; undercut_bonus by preset)."""

from __future__ import annotations

import pytest

from games.engine import Ruleset
from tests.engine.helpers import CLASSIC, SIMPLE, STANDARD, end_hand

# 9H-KH and the sevens; 6C + 4D = 10 deadwood. Layoff spots 8H and 7S are not in play here.
KNOCKER_10 = "9H TH JH QH KH 7C 7D 7H 6C 4D"
# AS-4S and 5C 5D 5S meld; 2C + 2D + 3C = 7 (the set of twos instead would leave
# AS + 5C + 5D + 3C = 14).
DEFENDER_7 = "AS 2S 3S 4S 5C 5D 5S 2C 2D 3C"
# AS-4S and the fives; 2C + 2D + 6H = 10, the same as the knocker.
DEFENDER_10 = "AS 2S 3S 4S 5C 5D 5S 2C 2D 6H"


@pytest.mark.parametrize(
    ("rules", "points"),
    [
        (STANDARD, 10 - 7 + 25),
        (CLASSIC, 10 - 7 + 10),
        (SIMPLE, 10 - 7 + 25),
    ],
    ids=["standard", "classic", "simple"],
)
def test_it_pays_the_defender_the_difference_plus_the_undercut_bonus(
    rules: Ruleset, points: int
) -> None:
    state = end_hand("knock", KNOCKER_10, DEFENDER_7, rules=rules)
    last = state.last_hand
    assert last is not None
    assert last["kind"] == "undercut"
    assert last["knocker"] == 0
    assert last["winner"] == 1
    assert last["deadwood"] == [10, 7]
    assert last["points"] == points
    assert state.scores == (0, points)
    assert state.hands_won == (0, 1)


def test_it_counts_a_tie_as_an_undercut() -> None:
    state = end_hand("knock", KNOCKER_10, DEFENDER_10)
    last = state.last_hand
    assert last is not None
    assert last["kind"] == "undercut"
    assert last["deadwood"] == [10, 10]
    # 10 - 10 + 25 = 25
    assert last["points"] == 25
    assert last["winner"] == 1


def test_it_counts_the_defenders_deadwood_after_layoffs_for_an_undercut() -> None:
    # The defender melds AS-4S and 5C 5D 5S, leaving 8H + 7S + 3C = 18: more than 10.
    # Laying off 8H (under 9H-KH) and 7S (onto the sevens) leaves 3C = 3: an undercut.
    state = end_hand("knock", KNOCKER_10, "AS 2S 3S 4S 5C 5D 5S 8H 7S 3C")
    last = state.last_hand
    assert last is not None
    assert {layoff["card"] for layoff in last["layoffs"]} == {"8H", "7S"}
    assert last["deadwood"] == [10, 3]
    assert last["kind"] == "undercut"
    # 10 - 3 + 25 = 32
    assert last["points"] == 32


def test_it_never_undercuts_gin() -> None:
    # The defender is fully melded too (3C-6C, 8D-TD, JS-KS), yet gin wins: 25 + 0.
    state = end_hand("gin", "AS 2S 3S 7C 7D 7H 9H TH JH QH", "3C 4C 5C 6C 8D 9D TD JS QS KS")
    last = state.last_hand
    assert last is not None
    assert last["deadwood"] == [0, 0]
    assert last["kind"] == "gin"
    assert last["winner"] == 0
    assert last["points"] == 25
