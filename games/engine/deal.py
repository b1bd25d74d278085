"""Dealing a hand: from a stacked deck, from the match seed, or by a provably fair scheme
(``fair``), which under ``fair.SEEDED`` first waits for the players' seeds ("shuffling")."""

from __future__ import annotations

import random
from typing import Any

from . import fair as fairness
from .cards import ALL_CARDS, is_card
from .match import MatchState, replace
from .rules import IllegalAction


def shuffled_deck(seed: int | str, hand_number: int) -> list[str]:
    """The deck of a given hand, derived from the match seed alone."""
    deck = list(ALL_CARDS)
    random.Random(f"gin:{seed}:{hand_number}").shuffle(deck)
    return deck


def hand_is_fair(state: MatchState) -> bool:
    """Is this hand dealt by a provably fair scheme? (A stacked first deck never is.)"""
    return state.fair != fairness.NONE and not (
        state.hand_number == 1 and state.first_deck is not None
    )


def _deck_of_hand(state: MatchState, hand_number: int) -> list[str]:
    if state.fair == fairness.CUT:
        return fairness.deck(fairness.server_seed(state.seed, hand_number))
    return shuffled_deck(state.seed, hand_number)


# What every new hand starts from, dealt or not.
_FRESH_HAND: dict[str, Any] = {
    "upcard_passes": 0,
    "stock_only": False,
    "taken_from_discard": None,
    "known": (frozenset(), frozenset()),
    "last_hand": None,
    "moves": (),
}


def validate_deck(deck: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    if len(deck) != 52 or not all(is_card(c) for c in deck) or len(set(deck)) != 52:
        raise ValueError("a stacked deck must hold each of the 52 card codes exactly once")
    return tuple(deck)


def deal(
    state: MatchState,
    deck: list[str] | tuple[str, ...],
    seeded: tuple[str | None, str | None] = (None, None),
) -> MatchState:
    """Deal ``deck``: ``deck[0:10]`` to the non-dealer, ``deck[10:20]`` to the dealer,
    ``deck[20]`` turned up, the rest the stock, top first. ``seeded``: the seeds it came from."""
    hands: list[tuple[str, ...]] = [(), ()]
    hands[1 - state.dealer] = tuple(deck[0:10])
    hands[state.dealer] = tuple(deck[10:20])
    # Without the upcard offer, the non-dealer simply opens with a draw from either pile.
    return replace(
        state,
        phase="upcard_offer" if state.rules.upcard_offer else "draw",
        to_act=1 - state.dealer,
        hands=(hands[0], hands[1]),
        discard=(deck[20],),
        stock=tuple(deck[21:]),
        seeded=seeded,
        **_FRESH_HAND,
    )


def start_hand(state: MatchState) -> MatchState:
    """Deal the hand ``state.hand_number``: at once from the seed, or (SEEDED) once the seats
    in ``seeders`` have sent their seeds; until then the hand is "shuffling"."""
    if state.fair != fairness.SEEDED:
        return deal(state, _deck_of_hand(state, state.hand_number))
    waiting = replace(
        state,
        phase="shuffling",
        to_act=None,
        hands=((), ()),
        discard=(),
        stock=(),
        seeded=(None if 0 in state.seeders else "", None if 1 in state.seeders else ""),
        **_FRESH_HAND,
    )
    return _deal_if_seeded(waiting)


def _deal_if_seeded(state: MatchState) -> MatchState:
    """Deal from the server seed and both seats' seeds once no seed is awaited."""
    first, second = state.seeded
    if first is None or second is None:
        return state
    server = fairness.server_seed(state.seed, state.hand_number)
    return deal(state, fairness.seeded_deck(server, (first, second)), (first, second))


def take_seed(state: MatchState, seat: int, action: dict[str, Any]) -> MatchState:
    """A seat's seed for the hand being shuffled (none without ``"seed"``): only the first
    one of each seat counts, and the hand is dealt once no seed is awaited."""
    if state.phase != "shuffling":
        raise IllegalAction("No seed is wanted now: a seed counts only before the deal.")
    if seat not in state.seeders:
        raise IllegalAction("This seat sends no seed in this match.")
    if state.seeded[seat] is not None:
        raise IllegalAction("Your seed for this hand is in already: only the first one counts.")
    seeded = list(state.seeded)
    seeded[seat] = str(action.get("seed", ""))
    return _deal_if_seeded(replace(state, seeded=(seeded[0], seeded[1]), version=state.version + 1))


def cut_stock(state: MatchState, seat: int, seed: str) -> MatchState:
    """The older scheme (``fair.CUT``): the seat's own seed cuts the stock, if it is the seat's
    first of this fair hand (a later one, or one in a hand that is not fair, changes nothing)."""
    if not hand_is_fair(state) or state.seeded[seat] is not None:
        return state
    server = fairness.server_seed(state.seed, state.hand_number)
    seeded = list(state.seeded)
    seeded[seat] = seed
    return replace(
        state,
        stock=tuple(fairness.cut(state.stock, server, seat, seed)),
        seeded=(seeded[0], seeded[1]),
    )
