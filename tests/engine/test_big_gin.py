"""Big Gin (RULES.md: A turn; option big_gin / big_gin_bonus)."""

from __future__ import annotations

from games.engine import MatchState, Ruleset, legal_actions
from tests.engine.helpers import CLASSIC, SIMPLE, STANDARD, deal, play, refused

# Seat 0 holds gin (AS-3S, the sevens, 9H-QH) and draws KH from the stock: all eleven meld.
GIN_TEN = "AS 2S 3S 7C 7D 7H 9H TH JH QH"
# Melds 2C-3C-4C; 4 + 5 + 7 + 8 + 5 + 8 + 9 = 46 left, with no layoffs against Big Gin
# (4S, 5S, 7S and 8H would have fitted the knocker's melds).
DEFENDER_46 = "4S 5S 7S 8H 2C 3C 4C 5D 8C 9D"


def drawn_eleven(rules: Ruleset, ten: str = GIN_TEN, drawn: str = "KH") -> MatchState:
    state = deal(ten, DEFENDER_46, "AC", drawn, rules=rules)
    return play(state, "0 pass", "1 pass", "0 draw stock")


def test_it_scores_big_gin_as_its_bonus_plus_the_defenders_deadwood() -> None:
    state = drawn_eleven(CLASSIC)
    assert {"type": "big_gin"} in legal_actions(state, 0)
    state = play(state, "0 big_gin")
    last = state.last_hand
    assert last is not None
    assert last["kind"] == "big_gin"
    assert last["winner"] == 0
    assert len(last["hands"][0]) == 11
    assert last["layoffs"] == []
    assert last["deadwood"] == [0, 46]
    # 31 + 46 = 77
    assert last["points"] == 77
    assert state.scores == (77, 0)
    # Big Gin is declared without discarding.
    assert state.discard == ("AC",)


def test_it_refuses_big_gin_where_the_option_is_off() -> None:
    for rules in (STANDARD, SIMPLE):
        state = drawn_eleven(rules)
        assert {"type": "big_gin"} not in legal_actions(state, 0)
        reason = refused(state, 0, {"type": "big_gin"})
        assert "not played" in reason
        # Plain gin is still there: 25 + 46 = 71.
        state = play(state, "0 gin KH")
        assert state.last_hand is not None
        assert state.last_hand["points"] == 71


def test_it_refuses_a_false_big_gin() -> None:
    # Drawing 5H instead: 5 points of deadwood among the eleven.
    state = drawn_eleven(CLASSIC, drawn="5H")
    assert {"type": "big_gin"} not in legal_actions(state, 0)
    reason = refused(state, 0, {"type": "big_gin"})
    assert "not Big Gin" in reason and "5" in reason
