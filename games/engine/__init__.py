"""The rules of gin rummy as this site plays them (RULES.md), pure Python.

Nothing here imports Django, does I/O or draws randomness it is not handed. Everything outside
this package uses only the names below.
"""

from __future__ import annotations

from . import fair
from .cards import ALL_CARDS, POINTS, display, is_card, points
from .melds import Arrangement, best_arrangement, best_discard, deadwood, discard_deadwoods
from .rules import PRESETS, IllegalAction, Ruleset
from .state import MatchState, apply, hand_is_fair, legal_actions, new_match, shuffled_deck
from .view import player_view, spectator_view

__all__ = [
    "ALL_CARDS",
    "POINTS",
    "PRESETS",
    "Arrangement",
    "IllegalAction",
    "MatchState",
    "Ruleset",
    "apply",
    "best_arrangement",
    "best_discard",
    "deadwood",
    "discard_deadwoods",
    "display",
    "fair",
    "hand_is_fair",
    "is_card",
    "legal_actions",
    "new_match",
    "player_view",
    "points",
    "shuffled_deck",
    "spectator_view",
]
