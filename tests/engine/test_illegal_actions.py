"""Everything the rules refuse: IllegalAction with a readable reason, and nothing changes."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from games.engine import MatchState, is_card, player_view
from tests.engine.helpers import CLASSIC, deal, end_hand, play, refused

# Seat 0: AS-3S, the sevens, 9H-JH and KC (10 deadwood); seat 1 deals. 4S is turned up and
# 5D tops the stock, so after drawing it seat 0 holds KC + 5D = 15 outside its melds.
P0 = "AS 2S 3S 7C 7D 7H 9H TH JH KC"
P1 = "2D 3D 4D 8C 8D 8S QH QS 5H 6H"


def start() -> MatchState:
    return deal(P0, P1, "4S", "5D 6D")


SITUATIONS: dict[str, Callable[[], MatchState]] = {
    "upcard offer": start,
    "dealer's upcard offer": lambda: play(start(), "0 pass"),
    "first draw": lambda: play(start(), "0 pass", "1 pass"),
    "discard": lambda: play(start(), "0 pass", "1 pass", "0 draw stock"),
    "discard after taking the upcard": lambda: play(start(), "0 take"),
    "seat 1 to draw": lambda: play(start(), "0 take", "0 discard KC"),
    "classic discard": lambda: play(
        deal(P0, P1, "4S", "5D 6D", rules=CLASSIC), "0 pass", "1 pass", "0 draw stock"
    ),
    "hand over": lambda: end_hand(
        "knock", "9H TH JH QH KH 7C 7D 7H 6C 4D", "2C 3D 4H 5S 8C 9D TC JD QS KC"
    ),
    "match over": lambda: end_hand(
        "gin", "AS 2S 3S 7C 7D 7S 4H 5H 6H 7H", "TC QC TH QH JD KD JS KS 9C 9D"
    ),
}

CASES: list[tuple[str, Any, Any, str]] = [
    # Out of turn
    ("upcard offer", 1, {"type": "pass"}, "not your turn"),
    ("upcard offer", 1, {"type": "take_upcard"}, "not your turn"),
    ("dealer's upcard offer", 0, {"type": "pass"}, "not your turn"),
    ("first draw", 1, {"type": "draw", "from": "stock"}, "not your turn"),
    ("discard", 1, {"type": "discard", "card": "2D"}, "not your turn"),
    # Wrong phase
    ("upcard offer", 0, {"type": "draw", "from": "stock"}, "Take the upcard or pass"),
    ("upcard offer", 0, {"type": "discard", "card": "AS"}, "Take the upcard or pass"),
    ("upcard offer", 0, {"type": "knock", "card": "KC"}, "Take the upcard or pass"),
    ("first draw", 0, {"type": "discard", "card": "AS"}, "Draw a card first"),
    ("first draw", 0, {"type": "pass"}, "Draw a card first"),
    ("first draw", 0, {"type": "take_upcard"}, "Draw a card first"),
    ("first draw", 0, {"type": "draw", "from": "discard"}, "first draw is from the stock"),
    ("discard", 0, {"type": "draw", "from": "stock"}, "You have drawn"),
    ("discard", 0, {"type": "pass"}, "You have drawn"),
    ("discard", 0, {"type": "take_upcard"}, "You have drawn"),
    # A card not held (the opponent's, a stock card, one already discarded)
    ("discard", 0, {"type": "discard", "card": "2D"}, "You don't hold 2D."),
    ("discard", 0, {"type": "discard", "card": "9S"}, "You don't hold 9S."),
    ("discard", 0, {"type": "knock", "card": "4S"}, "You don't hold 4S."),
    ("discard", 0, {"type": "gin", "card": "QS"}, "You don't hold QS."),
    # The card just taken from the discard pile
    ("discard after taking the upcard", 0, {"type": "discard", "card": "4S"}, "just took"),
    # Knock over the limit: throwing AS leaves 2 + 3 + 10 + 5 = 20
    ("discard", 0, {"type": "knock", "card": "AS"}, "can't knock with 20 points"),
    # False gin: throwing KC leaves 5D = 5
    ("discard", 0, {"type": "gin", "card": "KC"}, "not gin: 5 points"),
    # Big Gin: not at a standard table; a false one at a classic table (KC + 5D = 15)
    ("discard", 0, {"type": "big_gin"}, "not played at this table"),
    ("classic discard", 0, {"type": "big_gin"}, "not Big Gin: 15 points"),
    # next_hand mid-hand, play after the hand is over
    ("upcard offer", 0, {"type": "next_hand"}, "still being played"),
    ("discard", 0, {"type": "next_hand"}, "still being played"),
    ("hand over", 0, {"type": "pass"}, "start the next hand"),
    ("hand over", 1, {"type": "draw", "from": "stock"}, "start the next hand"),
    # Anything after the match is over
    ("match over", 0, {"type": "next_hand"}, "The match is over."),
    ("match over", 1, {"type": "next_hand"}, "The match is over."),
    ("match over", 0, {"type": "discard", "card": "AS"}, "The match is over."),
    # Malformed actions
    ("upcard offer", 0, "pass", "an action is an object"),
    ("upcard offer", 0, None, "an action is an object"),
    ("upcard offer", 0, ["pass"], "an action is an object"),
    ("upcard offer", 0, {}, "unknown type"),
    ("upcard offer", 0, {"type": "fly"}, "unknown type"),
    ("upcard offer", 0, {"type": None}, "unknown type"),
    ("upcard offer", 0, {"type": ["pass"]}, "unknown type"),
    ("upcard offer", 0, {"type": "PASS"}, "unknown type"),
    ("discard", 0, {"type": "discard"}, "needs a card code"),
    ("discard", 0, {"type": "discard", "card": None}, "needs a card code"),
    ("discard", 0, {"type": "discard", "card": "1X"}, "needs a card code"),
    ("discard", 0, {"type": "discard", "card": "as"}, "needs a card code"),
    ("discard", 0, {"type": "discard", "card": "AS "}, "needs a card code"),
    ("discard", 0, {"type": "discard", "card": "10S"}, "needs a card code"),
    ("discard", 0, {"type": "discard", "card": 5}, "needs a card code"),
    ("discard", 0, {"type": "discard", "card": ["AS"]}, "needs a card code"),
    ("discard", 0, {"type": "knock"}, "needs a card code"),
    ("discard", 0, {"type": "gin", "card": {}}, "needs a card code"),
    ("seat 1 to draw", 1, {"type": "draw"}, "'from' must be"),
    ("seat 1 to draw", 1, {"type": "draw", "from": "deck"}, "'from' must be"),
    ("seat 1 to draw", 1, {"type": "draw", "from": ["stock"]}, "'from' must be"),
    # Seats are the ints 0 and 1
    ("upcard offer", True, {"type": "pass"}, "no such seat"),
    ("upcard offer", False, {"type": "pass"}, "no such seat"),
    ("upcard offer", 2, {"type": "pass"}, "no such seat"),
    ("upcard offer", -1, {"type": "pass"}, "no such seat"),
    ("upcard offer", "0", {"type": "pass"}, "no such seat"),
    ("upcard offer", None, {"type": "pass"}, "no such seat"),
    ("upcard offer", 0.0, {"type": "pass"}, "no such seat"),
    ("discard", 0.0, {"type": "discard", "card": "KC"}, "no such seat"),
]

CARD = re.compile(r"\b[A2-9TJQK][CDHS]\b")


def visible_to(state: MatchState, seat: int) -> set[str]:
    """The cards a seat may see: its hand, the pile, the opponent's known cards, and at hand end
    both hands."""
    view = player_view(state, seat)
    cards = {*view["hand"], *view["discard_pile"], *view["known_opponent_cards"]}
    if view["last_hand"]:
        cards |= {card for hand in view["last_hand"]["hands"] for card in hand}
    return cards


@pytest.mark.parametrize(
    ("situation", "seat", "move", "reason"),
    CASES,
    ids=[f"{s}: seat {seat!r} {m!r}" for s, seat, m, _ in CASES],
)
def test_it_refuses_with_a_readable_reason_and_changes_nothing(
    situation: str, seat: Any, move: Any, reason: str
) -> None:
    state = SITUATIONS[situation]()
    assert reason in refused(state, seat, move)


@pytest.mark.parametrize(("situation", "seat", "move", "reason"), CASES)
def test_it_names_no_card_the_player_cannot_see(
    situation: str, seat: Any, move: Any, reason: str
) -> None:
    state = SITUATIONS[situation]()
    said = set(CARD.findall(refused(state, seat, move)))
    # Echoing the card the player named reveals nothing (see the test below).
    named = {move["card"]} if isinstance(move, dict) and is_card(move.get("card")) else set()
    viewer = seat if type(seat) is int and seat in (0, 1) else 0
    assert said <= visible_to(state, viewer) | named


def test_it_refuses_a_card_in_the_opponents_hand_like_a_card_in_the_stock() -> None:
    # 2D is in seat 1's hand, 9S in the stock: the reasons differ only by the card named.
    state = SITUATIONS["discard"]()
    opponents = refused(state, 0, {"type": "discard", "card": "2D"})
    stocks = refused(state, 0, {"type": "discard", "card": "9S"})
    assert opponents.replace("2D", "??") == stocks.replace("9S", "??")
