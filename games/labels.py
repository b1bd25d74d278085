"""The names the site gives to cards, suits, hand results, rule presets and Bea's levels.

One home for every label a reader sees of these things: the table, the replays, the hint's
explanations, the lobby and the forms all take them from here. Each is translated when shown,
not when this module is imported (in whatever language that was).
"""

from __future__ import annotations

from typing import Any

from django.utils.functional import lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext, pgettext_lazy

from games.engine import display

SUIT_NAMES = {
    "C": pgettext_lazy("suit", "clubs"),
    "D": pgettext_lazy("suit", "diamonds"),
    "H": pgettext_lazy("suit", "hearts"),
    "S": pgettext_lazy("suit", "spades"),
}
RANK_NAMES = {
    "A": gettext_lazy("ace"),
    "T": "10",
    "J": gettext_lazy("jack"),
    "Q": gettext_lazy("queen"),
    "K": gettext_lazy("king"),
}
KIND_NAMES = {
    "knock": gettext_lazy("knock"),
    "gin": gettext_lazy("gin"),
    "big_gin": gettext_lazy("Big Gin"),
    "undercut": gettext_lazy("undercut"),
    "draw": gettext_lazy("draw"),
}
PRESET_NAMES = {
    "standard": gettext_lazy("Standard"),
    "classic": gettext_lazy("Classic"),
    "simple": gettext_lazy("Simple"),
}


def suit_name(suit: str) -> str:
    """The plural name of a suit code (``H`` -> ``hearts``), in the active language."""
    return str(SUIT_NAMES[suit])


def card_name(code: str) -> str:
    """``10 of diamonds``, for screen readers and tooltips."""
    rank = RANK_NAMES.get(code[0], code[0])
    return _("%(rank)s of %(suit)s") % {"rank": rank, "suit": SUIT_NAMES[code[1]]}


def card(code: str, **extra: Any) -> dict[str, Any]:
    """What a template needs to draw one card."""
    label = display(code)
    return {
        "code": code,
        "rank": label[:-1],
        "suit": label[-1],
        "label": label,
        "red": code[1] in "DH",
        "name": card_name(code),
        **extra,
    }


def _level_name(level: str) -> str:
    names = {
        "easy": pgettext("Bea's level", "easy"),
        "medium": pgettext("Bea's level", "medium"),
        "hard": pgettext("Bea's level", "hard"),
        "expert": pgettext("Bea's level", "expert"),
    }
    return names.get(level, level)


level_name = lazy(_level_name, str)
