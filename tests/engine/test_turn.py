"""The upcard offer and a turn (RULES.md: Seats, deal and the first turn; A turn)."""

from __future__ import annotations

from games.engine import MatchState, legal_actions, player_view
from tests.engine.helpers import deal, hand, play, refused

# Seat 0 (non-dealer) and seat 1 (dealer); 4S is turned up, 5D and 6D top the stock.
P0 = "AS 2S 3S 7C 7D 7H 9H TH JH KC"
P1 = "2D 3D 4D 8C 8D 8S QH QS 5H 6H"


def start() -> MatchState:
    return deal(P0, P1, "4S", "5D 6D")


def test_it_lets_the_non_dealer_take_the_upcard() -> None:
    state = play(start(), "0 take")
    view = player_view(state, 0)
    assert view["phase"] == "discard"
    assert view["to_act"] == 0
    assert sorted(view["hand"]) == sorted([*hand(P0), "4S"])
    assert view["discard_pile"] == []
    assert player_view(state, 1)["known_opponent_cards"] == ["4S"]
    # Whoever takes it discards, then the other player plays.
    state = play(state, "0 discard KC")
    assert state.phase == "draw"
    assert state.to_act == 1
    assert state.discard == ("KC",)
    assert legal_actions(state, 1) == [
        {"type": "draw", "from": "stock"},
        {"type": "draw", "from": "discard"},
    ]


def test_it_offers_the_upcard_to_the_dealer_after_the_non_dealer_passes() -> None:
    state = play(start(), "0 pass")
    assert state.phase == "upcard_offer"
    assert state.to_act == 1
    assert legal_actions(state, 1) == [{"type": "take_upcard"}, {"type": "pass"}]
    assert legal_actions(state, 0) == []
    state = play(state, "1 take")
    assert sorted(state.hands[1]) == sorted([*hand(P1), "4S"])
    assert state.phase == "discard"
    state = play(state, "1 discard QS")
    # Play continues with the non-dealer, who may take the dealer's discard.
    assert state.phase == "draw"
    assert state.to_act == 0
    assert {"type": "draw", "from": "discard"} in legal_actions(state, 0)
    state = play(state, "0 draw discard")
    assert "QS" in state.hands[0]


def test_it_makes_the_non_dealer_draw_from_the_stock_when_both_pass() -> None:
    state = play(start(), "0 pass", "1 pass")
    assert state.phase == "draw"
    assert state.to_act == 0
    assert legal_actions(state, 0) == [{"type": "draw", "from": "stock"}]
    reason = refused(state, 0, {"type": "draw", "from": "discard"})
    assert "stock" in reason
    state = play(state, "0 draw stock")
    assert "5D" in state.hands[0]
    assert state.discard == ("4S",)
    assert len(state.stock) == 30


def test_it_forbids_discarding_the_upcard_just_taken() -> None:
    state = play(start(), "0 take")
    reason = refused(state, 0, {"type": "discard", "card": "4S"})
    assert "just took" in reason
    assert all(a.get("card") != "4S" for a in legal_actions(state, 0))
    assert player_view(state, 0)["cannot_discard"] == "4S"


def test_it_forbids_discarding_a_card_just_drawn_from_the_discard_pile() -> None:
    state = play(start(), "0 pass", "1 pass", "0 draw stock", "0 discard 5D", "1 draw discard")
    assert "5D" in state.hands[1]
    for kind in ("discard", "knock", "gin"):
        refused(state, 1, {"type": kind, "card": "5D"})
    assert all(a.get("card") != "5D" for a in legal_actions(state, 1))
    # A turn later the card may go.
    state = play(state, "1 discard QS", "0 draw stock", "0 discard 6D", "1 draw stock")
    state = play(state, "1 discard 5D")
    assert state.discard[-1] == "5D"


def test_it_lets_a_card_drawn_from_the_stock_be_discarded_at_once() -> None:
    state = play(start(), "0 pass", "1 pass", "0 draw stock")
    assert {"type": "discard", "card": "5D"} in legal_actions(state, 0)
    state = play(state, "0 discard 5D")
    assert state.discard == ("4S", "5D")
    assert state.hands[0] == tuple(hand(P0))
    assert state.to_act == 1


def test_it_makes_a_player_draw_exactly_one_card_then_discard_one() -> None:
    state = play(start(), "0 pass", "1 pass")
    assert len(state.hands[0]) == 10
    state = play(state, "0 draw stock")
    assert len(state.hands[0]) == 11
    assert [a["type"] for a in legal_actions(state, 0)].count("draw") == 0
    refused(state, 0, {"type": "draw", "from": "stock"})
    state = play(state, "0 discard KC")
    assert len(state.hands[0]) == 10
    assert state.to_act == 1
