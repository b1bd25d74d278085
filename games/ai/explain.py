"""One readable line saying why an action is good, for the hint button.

It names only cards the asking player can see: their own hand, the discard pile, and the cards the
log shows the opponent taking, throwing or passing on.
"""

from __future__ import annotations

from typing import Any

from games.engine.cards import BIT, INDEX, cards_of, display, mask_of
from games.engine.melds import deadwood_of_mask, melds_of_mask

from . import knowledge
from .baseline import melds_with

SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


def _names(cards: list[str]) -> str:
    return " ".join(display(c) for c in sorted(cards, key=INDEX.__getitem__))


def _group(cards: list[str]) -> str:
    """``7-8-9 of hearts`` for a run, ``the three 5s`` style for a set, else the glyphs."""
    ordered = sorted(cards, key=INDEX.__getitem__)
    suits = {c[1] for c in ordered}
    if len(suits) == 1:
        indices = [INDEX[c] for c in ordered]
        # A dash only for neighbours: "7-8-9", but "7 and 9" for a pair with a gap.
        joint = "-" if indices[-1] - indices[0] == len(indices) - 1 else " and "
        ranks = joint.join(display(c)[:-1] for c in ordered)
        return f"{ranks} of {SUIT_NAMES[ordered[0][1]]}"
    return _names(ordered)


def _partials(mask: int) -> list[list[str]]:
    """Pairs outside the melds that could become melds: same rank, or neighbours in a suit."""
    melded = 0
    for meld in melds_of_mask(mask):
        melded |= meld
    loose = cards_of(mask & ~melded)
    out = []
    for i, a in enumerate(loose):
        for b in loose[i + 1 :]:
            ia, ib = INDEX[a], INDEX[b]
            same_rank = ia % 13 == ib % 13
            near = ia // 13 == ib // 13 and abs(ia - ib) <= 2
            if same_rank or near:
                out.append([a, b])
    return out


def _keeps(mask: int) -> str:
    groups = [cards_of(m) for m in melds_of_mask(mask)] + _partials(mask)
    if not groups:
        return ""
    return "keeps " + ", ".join(_group(g) for g in groups[:3])


def _safety(view: dict[str, Any], card: str) -> str:
    """Why a discard is unlikely to help the opponent, from public evidence only."""
    known = knowledge.read(view)
    index = INDEX[card]
    rank, suit = index % 13, index // 13
    if card in known.opp_passed:
        return f"{display(card)} is safe: the opponent passed it"
    for seen, verb in ((known.opp_threw, "threw"), (known.opp_passed, "passed on")):
        for other in seen:
            j = INDEX[other]
            if j % 13 == rank or (j // 13 == suit and abs(j % 13 - rank) == 1):
                return f"{display(card)} looks safe: the opponent {verb} {display(other)}"
    risk = knowledge.danger(known, index)
    if risk < 0.08:
        return f"{display(card)} is hard for the opponent to use"
    took = sorted(set(known.opp_took) & set(view.get("known_opponent_cards") or []))
    near = [
        c
        for c in took
        if INDEX[c] % 13 == rank or (INDEX[c] // 13 == suit and abs(INDEX[c] % 13 - rank) <= 2)
    ]
    if near:
        return f"careful: the opponent took {_names(near)}, but the rest is worth more"
    if took:
        return f"{display(card)} is far from what the opponent took ({_names(took)})"
    return ""


def explain(view: dict[str, Any], action: dict[str, Any]) -> str:
    """A one-line reason for ``action`` in ``view``."""
    kind = action.get("type")
    hand = mask_of(view.get("hand") or [])
    top = view["discard_pile"][-1] if view.get("discard_pile") else None
    limit = view.get("rules", {}).get("knock_limit", 10)
    if kind == "next_hand":
        return "the hand is over: deal the next one"
    if kind in ("take_upcard", "draw") and action.get("from", "discard") == "discard" and top:
        after = hand | BIT[top]
        if melds_with(hand, INDEX[top]):
            melded = [m for m in melds_of_mask(after) if m & BIT[top]]
            if melded:
                return f"take {display(top)}: it makes {_group(cards_of(melded[0]))}"
            return f"take {display(top)}: it can make a meld with your cards"
        return f"take {display(top)}: it lowers your deadwood and keeps options open"
    if kind == "pass" and top:
        return f"pass: {display(top)} does not fit your hand"
    if kind == "draw":
        if top:
            return f"draw from the stock: {display(top)} would not improve your hand"
        return "draw from the stock"
    if kind == "big_gin":
        return "Big Gin: all eleven cards meld"
    card = action.get("card")
    if not isinstance(card, str) or card not in BIT:
        return "play on"
    rest = hand & ~BIT[card]
    left = deadwood_of_mask(rest)
    if kind == "gin":
        return f"gin: throw {display(card)} and every other card melds"
    keeps = _keeps(rest)
    safety = _safety(view, card)
    parts = [p for p in (keeps, safety) if p]
    tail = ("; " + "; ".join(parts)) if parts else ""
    if kind == "knock":
        return f"knock with {display(card)}: {left} deadwood is low enough to win the hand{tail}"
    if left <= limit:
        return f"throw {display(card)} but don't knock yet: {left} deadwood risks an undercut{tail}"
    return f"throw {display(card)} ({left} deadwood left){tail}"
