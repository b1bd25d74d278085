"""The player's hand in their order, the piles, and what the discard buttons may do, each card
ready to draw. The orders of cards themselves (a sort, the dragged order, a hand laid open) are
``orders``, pure Python that Bea offline runs too; ``games.table.arrange`` keeps a seat's."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.engine import display
from games.labels import card
from games.models import HandOrder

from . import orders


def laid_open(last: dict[str, Any]) -> dict[str, Any]:
    """A finished hand's cards as they are laid open (``orders.laid_open``), each named: a
    replay's (``games.records.replays``)."""
    return named_laid(orders.laid_open(last))


def named_laid(laid: dict[str, Any]) -> dict[str, Any]:
    """The cards of a hand laid open (``laid``: ``orders.laid_open``) each named
    (``labels.card``), by seat: each meld (the knocker's with the cards laid off on it, marked
    ``laid_off``), the deadwood, and the cards laid off."""
    laid_off = set(laid["laid_off"])
    return {
        "melds": [
            [
                [card(c, melded=c not in laid_off, laid_off=c in laid_off) for c in meld]
                for meld in melds
            ]
            for melds in laid["melds"]
        ],
        "deadwood": [[card(c) for c in cards] for cards in laid["deadwood"]],
        "laid_off": [card(c) for c in laid["laid_off"]],
    }


SORT_LABELS = {
    HandOrder.Sort.MELDS: gettext_lazy("melds first"),
    HandOrder.Sort.SUIT: gettext_lazy("by suit"),
    HandOrder.Sort.RANK: gettext_lazy("by rank"),
}


def just_drawn(view: dict[str, Any]) -> str:
    """The card this seat drew in the turn in progress (its own moves carry it), else ""."""
    moves = view["moves"]
    if view["phase"] != "discard" or not moves or moves[-1]["seat"] != view["seat"]:
        return ""
    last = moves[-1]
    return str(last.get("card") or "") if last["type"] in ("draw", "take_upcard") else ""


def hand_cards(
    view: dict[str, Any], hint_action: dict[str, Any], arranged: list[tuple[str, bool, bool]]
) -> list[dict[str, Any]]:
    """The hand in the player's order (``arranged``: ``orders.arranged``), each card ready
    to draw: melded or not, selectable for the discard, and the card just drawn."""
    after = view["deadwood_after_discard"] or {}
    choosing = bool(after) and any(a["type"] == "discard" for a in view["legal_actions"])
    knock_cards = {a["card"] for a in view["legal_actions"] if a["type"] == "knock"}
    gin_cards = {a["card"] for a in view["legal_actions"] if a["type"] == "gin"}
    blocked = view["cannot_discard"]
    hinted = hint_action.get("card", "")
    drawn = just_drawn(view)
    return [
        card(
            code,
            melded=melded,
            group_start=group_start,
            selectable=choosing and code != blocked,
            blocked=choosing and code == blocked,
            after=after.get(code),
            knock=code in knock_cards,
            gin=code in gin_cards,
            hinted=code == hinted,
            fresh=code == blocked,
            just_drawn=code == drawn,
        )
        for code, melded, group_start in arranged
    ]


def pile(view: dict[str, Any], hint_action: dict[str, Any]) -> dict[str, Any]:
    legal = view["legal_actions"]
    kinds = {(a["type"], a.get("from")) for a in legal}
    pile = view["discard_pile"]
    hinted = ""
    if hint_action.get("type") == "draw":
        hinted = hint_action.get("from", "")
    elif hint_action.get("type") == "take_upcard":
        hinted = "discard"
    return {
        "top": card(pile[-1]) if pile else None,
        "cards": [card(c) for c in reversed(pile)],
        "count": len(pile),
        "stock_count": view["stock_count"],
        "can_draw_stock": ("draw", "stock") in kinds,
        "can_draw_discard": ("draw", "discard") in kinds,
        "can_take_upcard": ("take_upcard", None) in kinds,
        "hinted": hinted,
    }


def discard_info(view: dict[str, Any]) -> dict[str, Any]:
    """For the discard phase: the reasons Knock or Gin cannot be pressed."""
    after = view["deadwood_after_discard"] or {}
    legal = view["legal_actions"]
    kinds = {a["type"] for a in legal}
    blocked = view["cannot_discard"]
    usable = {c: d for c, d in after.items() if c != blocked}
    best = min(usable.values()) if usable else None
    limit = view["rules"]["knock_limit"]
    why: list[str] = []
    refusal = ""
    if blocked:
        refusal = _("You took %(card)s from the discard pile: it cannot go back this turn.") % {
            "card": display(blocked)
        }
        why.append(refusal)
    if after and "knock" not in kinds and "gin" not in kinds and best is not None:
        why.append(
            _(
                "Knock needs %(limit)s or less deadwood after the discard; "
                "your best discard leaves %(best)s."
            )
            % {"limit": limit, "best": best}
        )
    return {
        "best": best,
        "limit": limit,
        "can_knock": "knock" in kinds,
        "can_gin": "gin" in kinds,
        "can_big_gin": "big_gin" in kinds,
        "why": why,
        # Why the card just taken refuses a discard gesture (gestures.js shows it).
        "refusal": refusal,
    }


def add_hand(ctx: dict[str, Any], view: dict[str, Any], ordered: dict[str, Any]) -> None:
    """The cards in the orders ``ordered`` (``orders.on_the_table``), each named and ready to
    draw: the hand (with the Sort button), the piles, the discard buttons, the opponent's
    known cards, a watcher's view of seat 0's hand, and the last hand laid open
    (``ctx["laid"]``, for the end of the hand)."""
    following = HandOrder.Sort(ordered["next"])
    ctx["hand_order"] = {
        "sort": ordered["sort"],
        "next": following.value,
        "next_label": str(SORT_LABELS[following]),
    }
    ctx["laid"] = named_laid(ordered["laid"]) if ordered["laid"] else None
    ctx["watched"] = watched(view, ctx["names"][ctx["seat"]]) if ctx["spectator"] else None
    ctx["hand_cards"] = hand_cards(view, ctx["hint_action"], ordered["hand"])
    ctx["pile"] = pile(view, ctx["hint_action"])
    if ctx["blocked"]:
        # Both players must be connected: the piles show no buttons until they are.
        ctx["pile"].update(can_draw_stock=False, can_draw_discard=False, can_take_upcard=False)
    ctx["discard_info"] = discard_info(view)
    ctx["known_cards"] = [card(c) for c in view["known_opponent_cards"]]


def watched(view: dict[str, Any], name: str) -> dict[str, Any]:
    """For a watcher: seat 0's hand as backs and the cards of it that are known."""
    shown = view["spectated"]
    return {
        "name": name,
        "backs": range(shown["card_count"]),
        "count": shown["card_count"],
        "known": [card(c) for c in shown["known"]],
    }
