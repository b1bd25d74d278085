"""What a match is at one moment (``MatchState``), and a cheap copy of it with changes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import fair as fairness
from .rules import Ruleset


@dataclass(frozen=True)
class MatchState:
    """Everything about a match, secrets included. Clients only ever see ``player_view``."""

    rules: Ruleset
    seed: int | str
    first_deck: tuple[str, ...] | None
    hand_number: int
    dealer: int
    phase: str
    to_act: int | None
    hands: tuple[tuple[str, ...], tuple[str, ...]]
    stock: tuple[str, ...]
    discard: tuple[str, ...]
    upcard_passes: int = 0
    stock_only: bool = False
    taken_from_discard: str | None = None
    known: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset())
    scores: tuple[int, int] = (0, 0)
    hands_won: tuple[int, int] = (0, 0)
    last_hand: dict[str, Any] | None = None
    history: tuple[dict[str, Any], ...] = ()
    settlement: dict[str, Any] | None = None
    moves: tuple[dict[str, Any], ...] = ()
    version: int = 0
    # The provably fair scheme (``fair.NONE``, ``fair.CUT`` or ``fair.SEEDED``). ``seeded``:
    # the players' seeds of this hand so far (None: not sent; "" under SEEDED: none, a seat
    # that sends no seed or did not send one in time); ``seeders``: the seats whose seed the
    # deal waits for under SEEDED (against Bea, only the player's).
    fair: int = fairness.NONE
    seeded: tuple[str | None, str | None] = (None, None)
    seeders: tuple[int, ...] = (0, 1)

    @property
    def non_dealer(self) -> int:
        return 1 - self.dealer


def replace(state: MatchState, **changes: Any) -> MatchState:
    """``dataclasses.replace`` without its per-field checks: a move makes one of these and
    self-play makes millions, so the copy must be cheap."""
    fresh = object.__new__(MatchState)
    fields = state.__dict__.copy()
    fields.update(changes)
    object.__setattr__(fresh, "__dict__", fields)
    return fresh
