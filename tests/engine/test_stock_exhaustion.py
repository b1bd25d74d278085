"""A hand that runs the stock down (RULES.md: End of hand, stock exhausted)."""

from __future__ import annotations

from games.engine import MatchState, apply, legal_actions
from tests.engine.helpers import deal, play

# Seat 0: AS-3S, the sevens, 9H-JH and 5C = 5 deadwood, so it could knock at any time but
# waits. Seat 1: 2D-4D and 8C 8D 8S; QH QS 5H 6H = 31.
P0 = "AS 2S 3S 7C 7D 7H 9H TH JH 5C"
P1 = "2D 3D 4D 8C 8D 8S QH QS 5H 6H"


def run_stock_down(turns: int) -> MatchState:
    """Both pass the upcard, then each player in turn draws from the stock and throws that card
    straight back, ``turns`` times, ending with the draw of the last turn."""
    state = play(deal(P0, P1, "KC"), "0 pass", "1 pass")
    for turn in range(turns):
        seat = state.to_act
        assert seat is not None
        drawn = state.stock[0]
        state = apply(state, seat, {"type": "draw", "from": "stock"})
        if turn < turns - 1:
            state = apply(state, seat, {"type": "discard", "card": drawn})
    return state


def test_it_plays_on_while_three_cards_are_left() -> None:
    # 31 in the stock; after 28 draws and discards 3 are left.
    state = run_stock_down(28)
    seat = state.to_act
    assert seat is not None
    state = apply(state, seat, {"type": "discard", "card": state.hands[seat][-1]})
    assert len(state.stock) == 3
    assert state.phase == "draw"


def test_it_draws_the_hand_when_a_plain_discard_leaves_two_stock_cards() -> None:
    # The 29th draw (seat 0's 15th) takes the third-to-last card.
    state = run_stock_down(29)
    assert state.to_act == 0
    assert len(state.stock) == 2
    version = state.version
    state = apply(state, 0, {"type": "discard", "card": state.hands[0][-1]})
    assert state.phase == "hand_over"
    last = state.last_hand
    assert last is not None
    assert last["kind"] == "draw"
    assert last["winner"] is None
    assert last["points"] == 0
    assert last["deadwood"] == [5, 31]
    assert state.scores == (0, 0)
    assert state.hands_won == (0, 0)
    assert state.version == version + 1
    assert state.history[-1]["kind"] == "draw"
    # The same dealer deals again.
    state = apply(state, 1, {"type": "next_hand"})
    assert state.dealer == 1
    assert state.hand_number == 2
    assert state.to_act == 0


def test_it_lets_the_drawer_of_the_third_to_last_card_knock() -> None:
    state = run_stock_down(29)
    drawn = state.hands[0][-1]
    assert {"type": "knock", "card": drawn} in legal_actions(state, 0)
    state = apply(state, 0, {"type": "knock", "card": drawn})
    last = state.last_hand
    assert last is not None
    assert last["kind"] == "knock"
    # Seat 1 lays QH off onto 9H-JH; QS + 5H + 6H = 21 left. 21 - 5 = 16.
    assert last["deadwood"] == [5, 21]
    assert last["points"] == 16
    assert state.scores == (16, 0)
