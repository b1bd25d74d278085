"""Bea, the computer opponent, and the hint button.

A player is a callable ``choose(view) -> action``: it sees only ``player_view`` and answers with one
of ``view["legal_actions"]``. Levels, weakest first, are ``LEVELS``; ``hint`` explains what the
strongest level would do.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from . import bea
from .explain import explain

LEVELS: tuple[str, ...] = ("easy", "medium", "hard", "expert")
HINT_LEVEL = LEVELS[-1]

Action = dict[str, Any]
Player = Callable[[dict[str, Any]], Action]


def _default_rng(view: dict[str, Any]) -> random.Random:
    """Without an rng, a decision still repeats: seed it from public facts of the view."""
    return random.Random(f"bea:{view.get('hand_number')}:{view.get('version')}:{view.get('seat')}")


def choose(view: dict[str, Any], level: str = "hard", rng: random.Random | None = None) -> Action:
    """Bea's action for ``view`` at ``level``: always one of ``view["legal_actions"]``."""
    if level not in bea.STYLES:
        raise ValueError(f"unknown level {level!r}: choose from {', '.join(LEVELS)}")
    return bea.decide(view, bea.STYLES[level], rng if rng is not None else _default_rng(view))


def hint(view: dict[str, Any]) -> dict[str, Any]:
    """The strongest level's choice for ``view`` and one readable line saying why."""
    action = choose(view, HINT_LEVEL)
    return {"action": action, "reason": explain(view, action)}


def player(level: str, seed: int | str | None = None) -> Player:
    """A ``choose(view) -> action`` callable for one seat (the arena's form of a player)."""
    if level not in bea.STYLES:
        raise ValueError(f"unknown level {level!r}: choose from {', '.join(LEVELS)}")
    style = bea.STYLES[level]
    rng = random.Random(f"bea-player:{level}:{seed}")

    def play(view: dict[str, Any]) -> Action:
        return bea.decide(view, style, rng)

    play.__name__ = f"bea_{level}"
    return play


__all__ = ["HINT_LEVEL", "LEVELS", "choose", "hint", "player"]
