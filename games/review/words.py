"""A judged decision in words, in the reader's language (stored as data, worded when shown).

The words name only the cards of the judgement itself: the card played or Bea's card (both in
the mover's hand then) and the face-up card a draw was about. The mover could see them all.
"""

from __future__ import annotations

from typing import Any

from django.utils.formats import number_format
from django.utils.translation import gettext as _

from games.ai.judge import same
from games.engine import display

from . import marks


def mark_label(name: str | None) -> str:
    return {
        "inaccuracy": _("Inaccuracy"),
        "mistake": _("Mistake"),
        "blunder": _("Blunder"),
    }.get(name or "", "")


# Beside a move in the list, as chess sites mark them.
SYMBOLS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}


def bea_would(decision: dict[str, Any]) -> str:
    """What Bea would have done, in one sentence."""
    bea, played = decision["bea"], decision["played"]
    kind = bea["type"]
    card = display(bea["card"]) if bea.get("card") else ""
    if kind == "take_upcard":
        return _("Bea would have taken the upcard, %(card)s.") % {
            "card": display(decision["upcard"])
        }
    if kind == "pass":
        return _("Bea would have passed on the upcard.")
    if kind == "draw" and bea.get("from") == "discard":
        return _("Bea would have taken %(card)s from the discard pile.") % {
            "card": display(decision["top"])
        }
    if kind == "draw":
        return _("Bea would have drawn from the stock.")
    if kind == "discard" and played["type"] in ("knock", "gin"):
        return _("Bea would have held on and thrown %(card)s.") % {"card": card}
    if kind == "discard":
        return _("Bea would have thrown %(card)s.") % {"card": card}
    if kind == "knock":
        return _("Bea would have knocked, throwing %(card)s.") % {"card": card}
    if kind == "gin":
        return _("Bea would have gone gin, throwing %(card)s.") % {"card": card}
    return _("Bea would have gone big gin.")


def text(decision: dict[str, Any]) -> str:
    """The judgement of one decision: the same as Bea's, or hers and, if marked, its cost."""
    if decision["cost"] == 0 and same(decision["bea"], decision["played"]):
        return _("Bea would have done the same.")
    name = marks.mark(decision["cost"])
    if name is None:
        return bea_would(decision)
    cost = _("That cost about %(cost)s percentage points of the chance to win the match.") % {
        "cost": number_format(decision["cost"], 1)
    }
    return f"{mark_label(name)}: {bea_would(decision)} {cost}"
