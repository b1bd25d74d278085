"""The lesson's deal and its script: every move of both players, in order.

Two hands on the real engine. In the first, stacked card by card (``DECK``), the learner (seat 0)
takes the upcard into a set, draws a run from the stock, takes a card from the discard pile into
another run and knocks; Bea lays off three cards and loses the hand. The second hand cannot be
stacked (the engine stacks the first hand only; later hands come from the match's seed), so the
match is made with a seed chosen for its second deal (``SEED``): the learner deals, takes the
upcard into a run and discards; Bea draws, knocks, and the learner's 7♥ laid off onto her run
makes it an undercut. ``tests/games/test_lesson_script.py`` plays the whole story through the
engine and checks each of those claims, so a change of the rules or of the shuffle that broke the
story fails there first.

Which move comes next depends only on the hand number, the count of moves in the hand and the
phase, all of which every player's view holds: so the door (``hooks.admit``), Bea's scripted
turns (``choose``) and the panel read the same script. It knows no words of the panel's.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from games.engine import (
    ALL_CARDS,
    PRESETS,
    MatchState,
    apply,
    fair,
    new_match,
    player_view,
)

PRESET = "standard"
TARGET = 100
# Bea's seat in a lesson plays this "level": the script, not her judgement (games.bea.turns).
LEVEL = "lesson"
LEARNER, BEA = 0, 1

_LEARNER_DEALT = "9S 9C 5H 6H 2C 3C KC QD JS 3D"
_BEA_DEALT = "4H 9H 5C QH QS QC 7H TD 6S 2S"
# The upcard, then the stock from the top: Bea's first draw, the learner's, Bea's second.
_UPCARD_AND_STOCK = "9D KS 4C 8D"


def _deck() -> tuple[str, ...]:
    head = f"{_LEARNER_DEALT} {_BEA_DEALT} {_UPCARD_AND_STOCK}".split()
    return (*head, *(c for c in ALL_CARDS if c not in head))


DECK = _deck()
# The second hand is dealt by the stock-cut scheme (``fair.CUT``, docs/fairness.md "Older
# matches") from this seed, with nobody cutting: a lesson's deals are its script. Found by
# trying seeds "lesson-0", "lesson-1", ... for a deal where Bea passes an upcard that is no use
# to her, the learner's takes it into a run, Bea knocks after one draw and the learner undercuts
# her only thanks to a card laid off. The learner's page sends a seed of its own with its first
# move of that hand, which would cut the stock: ``admit`` stores the script's move without it.
SEED = "lesson-1798838"
FAIR = fair.CUT


def _draw(source: str) -> dict[str, Any]:
    return {"type": "draw", "from": source}


def _with(kind: str, card: str) -> dict[str, Any]:
    return {"type": kind, "card": card}


@dataclass(frozen=True)
class Move:
    seat: int
    action: dict[str, Any]


SCRIPT: dict[int, tuple[Move, ...]] = {
    1: (
        Move(LEARNER, {"type": "take_upcard"}),  # 9♦: a set of nines
        Move(LEARNER, _with("discard", "KC")),
        Move(BEA, _draw("stock")),  # K♠
        Move(BEA, _with("discard", "KS")),
        Move(LEARNER, _draw("stock")),  # 4♣: a run 2♣ 3♣ 4♣
        Move(LEARNER, _with("discard", "QD")),
        Move(BEA, _draw("stock")),  # 8♦
        Move(BEA, _with("discard", "7H")),
        Move(LEARNER, _draw("discard")),  # 7♥: a run 5♥ 6♥ 7♥
        Move(LEARNER, _with("knock", "JS")),  # 3 left; Bea lays off 5♣, 4♥ and 9♥
    ),
    2: (
        Move(BEA, {"type": "pass"}),  # the J♦
        Move(LEARNER, {"type": "take_upcard"}),  # J♦: a run 9♦ 10♦ J♦
        Move(LEARNER, _with("discard", "8S")),
        Move(BEA, _draw("stock")),  # 8♥: a run 8♥ to Q♥
        Move(BEA, _with("knock", "JS")),  # 8 left; the learner lays off 7♥: undercut
    ),
}
LAST_HAND = max(SCRIPT)
NEXT_HAND = Move(LEARNER, {"type": "next_hand"})


@dataclass(frozen=True)
class Position:
    """Where a lesson stands: hand ``hand``, ``index`` moves into it; ``over`` once the hand
    has ended; ``done`` once the last hand has."""

    hand: int
    index: int
    over: bool

    @property
    def done(self) -> bool:
        return self.over and self.hand >= LAST_HAND

    @property
    def key(self) -> str:
        """A short name of the position, stable across renderings: ``1.4``, ``1.end``."""
        return f"{self.hand}.{'end' if self.over else self.index}"

    @property
    def next_move(self) -> Move | None:
        """The move the script makes next; None once the lesson is over."""
        if self.done or self.hand not in SCRIPT:
            return None
        if self.over:
            return NEXT_HAND
        moves = SCRIPT[self.hand]
        return moves[self.index] if self.index < len(moves) else None


def position(hand_number: int, moves: int, phase: str) -> Position:
    """The position of a match (or of anyone's view of it: the same three facts)."""
    return Position(hand_number, moves, phase in ("hand_over", "match_over"))


def position_of(view: dict[str, Any]) -> Position:
    return position(view["hand_number"], len(view["moves"]), view["phase"])


def without_seed(action: Any) -> Any:
    """An action without the page's own seed: the lesson's deals are fixed, nobody cuts them."""
    if isinstance(action, dict):
        return {k: v for k, v in action.items() if k != "seed"}
    return action


def choose(view: dict[str, Any]) -> dict[str, Any]:
    """Bea's ``choose(view)`` in a lesson: the script's move. If the script has none for her
    (it never should), her plainest legal move, so that a broken lesson still ends."""
    expected = position_of(view).next_move
    if expected is not None and expected.seat == view["seat"]:
        return dict(expected.action)
    return view["legal_actions"][0]


def progress(state: MatchState, seat: int) -> dict[str, Any]:
    """What a lesson adds to a seat's view (``readers.view_for``): where it stands, and the
    move the learner is asked for now (None while Bea plays, and once the lesson is over)."""
    where = position(state.hand_number, len(state.moves), state.phase)
    expected = where.next_move
    mine = expected is not None and expected.seat == seat
    return {
        "key": where.key,
        "expected": dict(expected.action) if mine and expected is not None else None,
        "done": where.done,
    }


def new_lesson() -> MatchState:
    """The lesson's first position, as the engine deals it."""
    return new_match(PRESETS[PRESET], seed=SEED, deck=list(DECK), fair=FAIR)


@functools.cache
def story() -> dict[str, dict[str, Any]]:
    """The whole lesson played through the engine: the learner's view at every position, by
    ``Position.key``. The panel quotes its numbers from here, so no number is typed by hand."""
    state = new_lesson()
    views: dict[str, dict[str, Any]] = {}
    while True:
        where = position(state.hand_number, len(state.moves), state.phase)
        views[where.key] = player_view(state, LEARNER)
        move = where.next_move
        if move is None:
            return views
        state = apply(state, move.seat, move.action)
