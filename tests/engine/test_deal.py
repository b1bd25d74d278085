"""Seats, the deal and the deck (RULES.md: Seats, deal and the first turn)."""

from __future__ import annotations

import pytest

from games.engine import ALL_CARDS, legal_actions, new_match, player_view, shuffled_deck
from tests.engine.helpers import STANDARD, hand, stacked

P0 = "AS 2S 3S 7C 7D 7H 9H TH JH KC"
P1 = "2D 3D 4D 8C 8D 8S QH QS 5H 6H"


def test_it_deals_a_stacked_deck_to_the_non_dealer_first() -> None:
    deck = stacked(P0, P1, "4S", "5D 6D")
    state = new_match(STANDARD, deck=deck)
    # First hand: seat 1 deals, so seat 0 gets deck[0:10] and acts first.
    assert state.dealer == 1
    assert state.hands == (tuple(hand(P0)), tuple(hand(P1)))
    assert state.discard == ("4S",)
    assert state.stock == tuple(deck[21:])
    assert state.stock[:2] == ("5D", "6D")
    assert len(state.stock) == 31
    view = player_view(state, 0)
    assert view["phase"] == "upcard_offer"
    assert view["to_act"] == 0
    assert view["dealer"] == 1
    assert view["hand_number"] == 1
    assert view["hand"] == hand(P0)
    assert view["discard_pile"] == ["4S"]
    assert view["stock_count"] == 31
    assert view["opponent_card_count"] == 10
    assert view["scores"] == [0, 0]
    assert view["version"] == 0


def test_it_fills_the_rest_of_a_stacked_deck_in_a_fixed_order() -> None:
    deck = stacked(P0, P1, "4S", "5D")
    assert sorted(deck) == sorted(ALL_CARDS)
    assert deck[22:24] == ["AC", "2C"]  # the first cards no scenario named


def test_it_deals_from_the_seed_when_no_deck_is_stacked() -> None:
    deck = shuffled_deck(7, 1)
    state = new_match(STANDARD, seed=7)
    assert state.hands == (tuple(deck[0:10]), tuple(deck[10:20]))
    assert state.discard == (deck[20],)
    assert state.stock == tuple(deck[21:])


def test_it_shuffles_each_hand_from_the_seed_alone() -> None:
    assert shuffled_deck(7, 1) == shuffled_deck(7, 1)
    assert shuffled_deck(7, 1) != shuffled_deck(7, 2)
    assert shuffled_deck(7, 1) != shuffled_deck(8, 1)
    assert sorted(shuffled_deck(7, 3)) == sorted(ALL_CARDS)


def test_it_offers_the_upcard_to_the_non_dealer_only() -> None:
    state = new_match(STANDARD, seed=1)
    assert legal_actions(state, 0) == [{"type": "take_upcard"}, {"type": "pass"}]
    assert legal_actions(state, 1) == []


def test_it_needs_a_seed_or_a_deck() -> None:
    with pytest.raises(ValueError):
        new_match(STANDARD)


@pytest.mark.parametrize(
    "deck",
    [list(ALL_CARDS[:51]), [*ALL_CARDS[:51], "AC"], [*ALL_CARDS[:51], "1X"]],
    ids=["short", "duplicate", "garbage"],
)
def test_it_refuses_a_deck_that_is_not_the_52_cards(deck: list[str]) -> None:
    with pytest.raises(ValueError):
        new_match(STANDARD, deck=deck)


def test_it_opens_with_a_draw_from_either_pile_when_the_upcard_offer_is_off() -> None:
    from dataclasses import replace

    rules = replace(STANDARD, upcard_offer=False)
    state = new_match(rules, deck=stacked(P0, P1, "4S", "5D 6D"))
    assert state.phase == "draw"
    assert state.to_act == 0
    assert legal_actions(state, 0) == [
        {"type": "draw", "from": "stock"},
        {"type": "draw", "from": "discard"},
    ]
    assert legal_actions(state, 1) == []
