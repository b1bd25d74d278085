"""The match: scores accumulate to the target (RULES.md: The match)."""

from __future__ import annotations

import dataclasses

import pytest

from games.engine import legal_actions, player_view
from tests.engine.helpers import STANDARD, end_hand, refused

# Gin: AS-3S, 7C 7D 7S, 4H-7H.
GIN_TEN = "AS 2S 3S 7C 7D 7S 4H 5H 6H 7H"
# No meld (at most two of a rank, no three in a row): 9 + 9 + 8 * 10 = 98, so gin scores
# 25 + 98 = 123, past the default target of 100 in one hand.
DEFENDER_98 = "TC QC TH QH JD KD JS KS 9C 9D"
# A knock worth 71 - 10 = 61.
KNOCKER_10 = "9H TH JH QH KH 7C 7D 7H 6C 4D"
DEFENDER_71 = "2C 3D 4H 5S 8C 9D TC JD QS KC"


def test_it_ends_the_match_when_a_player_reaches_the_target() -> None:
    state = end_hand("gin", GIN_TEN, DEFENDER_98)
    assert state.scores == (123, 0)
    assert state.phase == "match_over"
    assert state.to_act is None
    assert state.settlement is not None
    assert state.settlement["winner"] == 0
    assert legal_actions(state, 0) == []
    assert legal_actions(state, 1) == []
    view = player_view(state, 1)
    assert view["phase"] == "match_over"
    assert view["settlement"] == state.settlement
    assert view["last_hand"]["points"] == 123


def test_it_plays_on_below_the_target() -> None:
    state = end_hand("knock", KNOCKER_10, DEFENDER_71)
    assert state.scores == (61, 0)
    assert state.phase == "hand_over"
    assert state.settlement is None
    assert legal_actions(state, 0) == [{"type": "next_hand"}]


@pytest.mark.parametrize(("target", "over"), [(50, True), (61, True), (62, False), (150, False)])
def test_it_plays_to_a_custom_target(target: int, over: bool) -> None:
    rules = dataclasses.replace(STANDARD, target=target)
    state = end_hand("knock", KNOCKER_10, DEFENDER_71, rules=rules)
    # 61 points reach a target of 50 or 61, not 62 or 150.
    assert (state.phase == "match_over") is over
    assert player_view(state, 0)["rules"]["target"] == target


def test_it_refuses_every_move_once_the_match_is_over() -> None:
    state = end_hand("gin", GIN_TEN, DEFENDER_98)
    for seat in (0, 1):
        for move in (
            {"type": "next_hand"},
            {"type": "pass"},
            {"type": "draw", "from": "stock"},
            {"type": "discard", "card": "AS"},
        ):
            assert refused(state, seat, move) == "The match is over."
