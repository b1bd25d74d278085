"""The next hand and who deals it (RULES.md: option next_dealer; stock exhausted)."""

from __future__ import annotations

import pytest

from games.engine import MatchState, Ruleset, apply, new_match, player_view, shuffled_deck
from tests.engine.helpers import (
    CLASSIC,
    SIMPLE,
    STANDARD,
    deal,
    end_hand,
    play,
    spare_cards,
    stacked,
)

# Seat 0 knocks with 10 (9H-KH, the sevens, 6C 4D).
KNOCKER_10 = "9H TH JH QH KH 7C 7D 7H 6C 4D"
# No melds, 71 deadwood: seat 0 wins 61.
LOSING_DEFENDER = "2C 3D 4H 5S 8C 9D TC JD QS KC"
# 7 deadwood: seat 1 undercuts.
UNDERCUTTING_DEFENDER = "AS 2S 3S 4S 5C 5D 5S 2C 2D 3C"


def seat_0_wins(rules: Ruleset) -> MatchState:
    state = end_hand("knock", KNOCKER_10, LOSING_DEFENDER, rules=rules)
    assert state.last_hand is not None and state.last_hand["winner"] == 0
    return state


def seat_1_wins(rules: Ruleset) -> MatchState:
    state = end_hand("knock", KNOCKER_10, UNDERCUTTING_DEFENDER, rules=rules)
    assert state.last_hand is not None and state.last_hand["winner"] == 1
    return state


def drawn_hand(rules: Ruleset) -> MatchState:
    """Both players draw from the stock and throw the card back until two stock cards are left."""
    state = play(deal(KNOCKER_10, LOSING_DEFENDER, "AC", rules=rules), "0 pass", "1 pass")
    while state.phase != "hand_over":
        seat = state.to_act
        assert seat is not None
        drawn = state.stock[0]
        state = apply(state, seat, {"type": "draw", "from": "stock"})
        state = apply(state, seat, {"type": "discard", "card": drawn})
    assert state.last_hand is not None and state.last_hand["kind"] == "draw"
    return state


@pytest.mark.parametrize("seat", [0, 1])
def test_it_starts_the_next_hand_on_either_seats_word(seat: int) -> None:
    state = seat_0_wins(STANDARD)
    assert state.phase == "hand_over"
    state = apply(state, seat, {"type": "next_hand"})
    assert state.phase == "upcard_offer"
    assert state.hand_number == 2
    assert state.last_hand is None
    assert state.scores == (61, 0)
    assert len(state.history) == 1


def test_it_deals_the_next_hand_from_the_seed_to_the_new_non_dealer() -> None:
    # new_match with a stacked deck and no seed uses seed 0 for the later hands.
    state = apply(seat_0_wins(STANDARD), 0, {"type": "next_hand"})
    deck = shuffled_deck(0, 2)
    assert state.dealer == 0
    assert state.to_act == 1
    assert state.hands[1] == tuple(deck[0:10])
    assert state.hands[0] == tuple(deck[10:20])
    assert state.discard == (deck[20],)
    assert state.stock == tuple(deck[21:])
    assert player_view(state, 1)["legal_actions"] == [{"type": "take_upcard"}, {"type": "pass"}]


def test_it_uses_the_match_seed_for_later_hands_of_a_stacked_match() -> None:
    upcard, drawn = spare_cards(KNOCKER_10, LOSING_DEFENDER)
    deck = stacked(KNOCKER_10, LOSING_DEFENDER, upcard, drawn)
    state = new_match(STANDARD, seed=42, deck=deck)
    state = play(state, "0 pass", "1 pass", "0 draw stock", f"0 knock {drawn}", "1 next_hand")
    assert state.hands[1] == tuple(shuffled_deck(42, 2)[0:10])


@pytest.mark.parametrize("rules", [STANDARD, SIMPLE], ids=["standard", "simple"])
def test_it_alternates_the_deal_after_a_scored_hand(rules: Ruleset) -> None:
    # Seat 1 dealt hand 1; seat 0 deals hand 2 whoever won.
    assert apply(seat_0_wins(rules), 0, {"type": "next_hand"}).dealer == 0
    assert apply(seat_1_wins(rules), 0, {"type": "next_hand"}).dealer == 0


def test_it_gives_the_deal_to_the_winner_under_classic() -> None:
    # Seat 0 wins hand 1 and deals hand 2.
    assert apply(seat_0_wins(CLASSIC), 0, {"type": "next_hand"}).dealer == 0
    # Seat 1 (the dealer) wins by undercut and deals again.
    assert apply(seat_1_wins(CLASSIC), 0, {"type": "next_hand"}).dealer == 1


@pytest.mark.parametrize("rules", [STANDARD, CLASSIC], ids=["standard", "classic"])
def test_it_keeps_the_dealer_after_a_drawn_hand(rules: Ruleset) -> None:
    state = apply(drawn_hand(rules), 0, {"type": "next_hand"})
    assert state.dealer == 1
    assert state.to_act == 0
    assert state.hand_number == 2
    assert state.scores == (0, 0)
