"""Helpers that let engine tests read like the rules.

``hand("AS 2S 3S")`` spells cards; ``stacked(...)`` builds a whole deck from the cards a scenario
names, so every score in a test can be worked out by hand; ``play(state, "0 pass", ...)`` applies
moves written as ``"<seat> <verb> [<card or source>]"``.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from games.engine import (
    ALL_CARDS,
    PRESETS,
    IllegalAction,
    MatchState,
    Ruleset,
    apply,
    new_match,
    player_view,
)

STANDARD = PRESETS["standard"]
CLASSIC = PRESETS["classic"]
SIMPLE = PRESETS["simple"]


def hand(text: str) -> list[str]:
    """The card codes of a space-separated string: ``hand("AS 2S 3S")``."""
    cards = text.split()
    for card in cards:
        assert card in ALL_CARDS, f"not a card code: {card!r}"
    return cards


def stacked(p0: str, p1: str, upcard: str, *stock_top: str) -> list[str]:
    """A full 52-card deck for ``new_match(rules, deck=...)``.

    ``p0`` is the non-dealer's ten (seat 0 in the first hand), ``p1`` the dealer's ten, then the
    upcard and the first cards of the stock, top first (each argument may name several cards).
    The rest of the stock follows in the fixed order of ``ALL_CARDS`` (clubs A-K, diamonds, ...).
    """
    first, second, turned = hand(p0), hand(p1), hand(upcard)
    top = [card for text in stock_top for card in hand(text)]
    assert len(first) == 10 and len(second) == 10 and len(turned) == 1
    named = [*first, *second, *turned, *top]
    assert len(set(named)) == len(named), "a card is named twice"
    return named + [card for card in ALL_CARDS if card not in named]


def action(text: str) -> tuple[int, dict[str, Any]]:
    """``"0 discard TD"`` -> ``(0, {"type": "discard", "card": "TD"})``."""
    seat, verb, *rest = text.split()
    if verb == "take":
        move: dict[str, Any] = {"type": "take_upcard"}
    elif verb == "draw":
        move = {"type": "draw", "from": rest[0]}
    elif verb in ("discard", "knock", "gin"):
        move = {"type": verb, "card": rest[0]}
    else:
        move = {"type": verb}
    return int(seat), move


def play(state: MatchState, *moves: str) -> MatchState:
    """Apply each move in turn, e.g. ``play(state, "0 pass", "1 pass", "0 draw stock")``."""
    for text in moves:
        seat, move = action(text)
        state = apply(state, seat, move)
    return state


def deal(p0: str, p1: str, upcard: str, *stock_top: str, rules: Ruleset = STANDARD) -> MatchState:
    """A first hand dealt from a stacked deck (seat 1 deals, seat 0 acts first)."""
    return new_match(rules, deck=stacked(p0, p1, upcard, *stock_top))


def spare_cards(*texts: str, count: int = 2) -> list[str]:
    """The first ``count`` cards (in ``ALL_CARDS`` order) that none of ``texts`` names."""
    named = {card for text in texts for card in hand(text)}
    return [card for card in ALL_CARDS if card not in named][:count]


def end_hand(
    kind: str, knocker_ten: str, defender_ten: str, rules: Ruleset = STANDARD
) -> MatchState:
    """Seat 0 holds ``knocker_ten``, seat 1 ``defender_ten``. Both pass the upcard, seat 0 draws
    a spare card from the stock and ends the hand with ``kind`` ("knock" or "gin") by discarding
    it, so the knocker's final ten are exactly ``knocker_ten``. The spare cards are two that
    neither hand names; they never take part in the scoring."""
    upcard, drawn = spare_cards(knocker_ten, defender_ten)
    state = deal(knocker_ten, defender_ten, upcard, drawn, rules=rules)
    return play(state, "0 pass", "1 pass", "0 draw stock", f"0 {kind} {drawn}")


def snapshot(state: MatchState) -> dict[str, Any]:
    """A deep copy of every field of a state, to check that nothing changed it."""
    return copy.deepcopy(dict(state.__dict__))


def refused(state: MatchState, seat: Any, move: Any) -> str:
    """Check that ``move`` raises ``IllegalAction`` with a readable reason and changes nothing
    (neither the state's fields nor what either seat sees); return the reason."""
    before = snapshot(state)
    views = [player_view(state, 0), player_view(state, 1)]
    with pytest.raises(IllegalAction) as caught:
        apply(state, seat, move)
    assert snapshot(state) == before
    assert [player_view(state, 0), player_view(state, 1)] == views
    reason = caught.value.reason
    assert reason == str(caught.value)
    assert reason[:1].isupper() and reason.endswith("."), reason
    return reason


def melds_of_layoffs(last_hand: dict[str, Any]) -> dict[str, list[str]]:
    """Each laid-off card mapped to the knocker's meld it went onto (as dealt, before layoffs)."""
    melds = last_hand["melds"][last_hand["knocker"]]
    return {layoff["card"]: melds[layoff["meld"]] for layoff in last_hand["layoffs"]}
