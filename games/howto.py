"""How to play: the rules page of one preset, every number taken from its ``Ruleset``.

The worked examples are not written out by hand: each is a short stacked deal played through
the engine (``new_match`` with a deck, then ``apply``), and the page shows what the engine
scored. So the page can never disagree with the rules the tables play by, whatever a preset's
numbers become.
"""

from __future__ import annotations

import functools
from dataclasses import replace
from typing import Any

from django.utils.html import format_html

from games.engine import ALL_CARDS, PRESETS, Ruleset, apply, display, new_match, player_view, points
from games.labels import PRESET_NAMES

PRESET_ORDER = ("standard", "classic", "simple")
DEFAULT_PRESET = "standard"
# A plain discard that leaves this many cards in the stock ends the hand as a draw (RULES.md;
# fixed, not an option).
STOCK_LEFT_AT_DRAW = 2

# The examples' deals: seat 0's ten cards, seat 1's ten, the upcard, the first stock card.
# Seat 0 passes the upcard, so does seat 1; seat 0 draws the stock card and ends the hand by
# discarding ``END_WITH``.
_UNDERCUT_DEAL = (
    "4H 5H 6H 9S 9D 9C JC QC KC KD",
    "2S 3S 4S 8H 8S 8C AD 2D 7H 3C",
    "5C",
    "7D",
)
_GIN_DEAL = (
    "AH 2H 3H 7S 7C 7D QH QS QD KD",
    "2S 3S 4S 8H 8S 8C AD 2D 7H 3C",
    "5C",
    "4H",
)
END_WITH = "KD"


def preset_of(name: str | None) -> str:
    """The preset a request asks for, or the default one for anything unknown."""
    return name if name in PRESETS else DEFAULT_PRESET


def _deck(deal: tuple[str, str, str, str]) -> list[str]:
    first, second, upcard, drawn = deal
    head = [*first.split(), *second.split(), upcard, drawn]
    return head + [c for c in ALL_CARDS if c not in head]


def _played(rules: Ruleset, deal: tuple[str, str, str, str], end: dict[str, Any], **before: Any):  # type: ignore[no-untyped-def]
    """The deal played to its end through the engine; ``before`` replaces match progress
    (scores, hands won) just before the last action, to show a match's end."""
    state = new_match(rules, deck=_deck(deal))
    state = apply(state, 0, {"type": "pass"})
    state = apply(state, 1, {"type": "pass"})
    state = apply(state, 0, {"type": "draw", "from": "stock"})
    if before:
        state = replace(state, **before)
    return player_view(apply(state, 0, end), 0)


def _side(result: dict[str, Any], seat: int) -> dict[str, Any]:
    laid = [item["card"] for item in result["layoffs"]] if seat == 1 else []
    return {
        "melds": result["melds"][seat],
        "deadwood_cards": result["deadwood_cards"][seat],
        "laid_off": laid,
        "deadwood": result["deadwood"][seat],
    }


@functools.cache
def examples(preset: str) -> dict[str, Any]:
    """The worked examples of ``preset``, as the engine scored them."""
    rules = PRESETS[preset]
    knock = {"type": "knock", "card": END_WITH}
    gin = {"type": "gin", "card": END_WITH}
    undercut = _played(rules, _UNDERCUT_DEAL, knock)["last_hand"]
    gin_hand = _played(rules, _GIN_DEAL, gin)["last_hand"]
    # The last hand of a match: a gin takes seat 0 past the target.
    gin_points = gin_hand["points"]
    ahead = max(0, rules.target - gin_points + 12)
    behind = min(46, max(0, rules.target - 1))
    ended = _played(rules, _GIN_DEAL, gin, scores=(ahead, behind), hands_won=(3, 3))
    shutout = _played(rules, _GIN_DEAL, gin, scores=(ahead, 0), hands_won=(3, 0))
    return {
        "undercut": {
            "knocker": _side(undercut, 0),
            "defender": _side(undercut, 1),
            "kind": undercut["kind"],
            "points": undercut["points"],
            "difference": undercut["deadwood"][0] - undercut["deadwood"][1],
            "laid_off_label": ", ".join(display(c) for c in _side(undercut, 1)["laid_off"]),
            # Each layoff drawn on the meld it extends: the meld, then the laid-off card.
            "extended": [
                {"meld": undercut["melds"][0][item["meld"]], "card": item["card"]}
                for item in undercut["layoffs"]
            ],
            "defender_before": undercut["deadwood"][1]
            + sum(points(c) for c in _side(undercut, 1)["laid_off"]),
        },
        "gin": {
            "knocker": _side(gin_hand, 0),
            "defender": _side(gin_hand, 1),
            "points": gin_points,
        },
        "settlement": ended["settlement"],
        "shutout": shutout["settlement"],
    }


NUMBERS = (
    "target",
    "knock_limit",
    "gin_bonus",
    "big_gin_bonus",
    "undercut_bonus",
    "game_bonus",
    "box_bonus",
)


def _numbers(rules: Ruleset) -> dict[str, str]:
    """Each number of the ruleset, marked with the option it comes from (the page's test reads
    the marks back and compares them with ``PRESETS``)."""
    return {
        name: format_html('<b data-rule="{}">{}</b>', name, getattr(rules, name))
        for name in NUMBERS
    }


def context(preset: str) -> dict[str, Any]:
    """What the page shows for ``preset``: its rules and the worked examples."""
    rules = PRESETS[preset]
    return {
        "preset": preset,
        "preset_label": PRESET_NAMES[preset],
        "preset_links": [(name, PRESET_NAMES[name]) for name in PRESET_ORDER],
        "rules": rules,
        "n": _numbers(rules),
        "stock_left": STOCK_LEFT_AT_DRAW,
        "example": examples(preset),
        "run": ["4H", "5H", "6H", "7H"],
        "set": ["9S", "9D", "9C"],
        "not_a_run": ["QS", "KS", "AS"],
    }
