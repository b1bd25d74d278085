"""One readable line saying why an action is good, for the hint button.

It names only cards the asking player can see: their own hand, the discard pile, and the cards the
log shows the opponent taking, throwing or passing on.

Every phrase is marked for translation with named placeholders, so a language can reorder them.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games.engine.cards import BIT, INDEX, cards_of, display, mask_of
from games.engine.melds import deadwood_of_mask, melds_of_mask
from games.labels import suit_name

from . import knowledge
from .baseline import melds_with


def _names(cards: list[str]) -> str:
    return " ".join(display(c) for c in sorted(cards, key=INDEX.__getitem__))


def _group(cards: list[str]) -> str:
    """``7-8-9 of hearts`` for a run, ``the three 5s`` style for a set, else the glyphs."""
    ordered = sorted(cards, key=INDEX.__getitem__)
    suits = {c[1] for c in ordered}
    if len(suits) == 1:
        indices = [INDEX[c] for c in ordered]
        # A dash only for neighbours: "7-8-9", but "7 and 9" for a pair with a gap.
        ranks = [display(c)[:-1] for c in ordered]
        if indices[-1] - indices[0] == len(indices) - 1:
            joined = "-".join(ranks)
        else:
            joined = ranks[0]
            for rank in ranks[1:]:
                joined = pgettext("two ranks of one suit", "%(first)s and %(second)s") % {
                    "first": joined,
                    "second": rank,
                }
        # Translators: a run or pair in one suit, e.g. "7-8-9 of hearts" or "7 and 9 of hearts".
        return pgettext("cards of one suit", "%(ranks)s of %(suit)s") % {
            "ranks": joined,
            "suit": suit_name(ordered[0][1]),
        }
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
    # Translators: what a discard leaves together in the hand, e.g. "keeps 7-8-9 of hearts, 5♣ 5♦".
    return _("keeps %(groups)s") % {"groups": ", ".join(_group(g) for g in groups[:3])}


def _safety(view: dict[str, Any], card: str) -> str:
    """Why a discard is unlikely to help the opponent, from public evidence only."""
    known = knowledge.read(view)
    index = INDEX[card]
    rank, suit = index % 13, index // 13
    if card in known.opp_passed:
        return _("%(card)s is safe: your opponent passed it") % {"card": display(card)}
    threw = _("%(card)s looks safe: your opponent threw %(other)s")
    passed_on = _("%(card)s looks safe: your opponent passed on %(other)s")
    for seen, reason in ((known.opp_threw, threw), (known.opp_passed, passed_on)):
        for other in seen:
            j = INDEX[other]
            if j % 13 == rank or (j // 13 == suit and abs(j % 13 - rank) == 1):
                return reason % {"card": display(card), "other": display(other)}
    risk = knowledge.danger(known, index)
    if risk < 0.08:
        return _("%(card)s is hard for your opponent to use") % {"card": display(card)}
    took = sorted(set(known.opp_took) & set(view.get("known_opponent_cards") or []))
    near = [
        c
        for c in took
        if INDEX[c] % 13 == rank or (INDEX[c] // 13 == suit and abs(INDEX[c] % 13 - rank) <= 2)
    ]
    if near:
        return _("careful: your opponent took %(cards)s, but the rest is worth more") % {
            "cards": _names(near)
        }
    if took:
        return _("%(card)s is far from what your opponent took (%(cards)s)") % {
            "card": display(card),
            "cards": _names(took),
        }
    return ""


def explain(view: dict[str, Any], action: dict[str, Any]) -> str:
    """A one-line reason for ``action`` in ``view``."""
    kind = action.get("type")
    hand = mask_of(view.get("hand") or [])
    top = view["discard_pile"][-1] if view.get("discard_pile") else None
    limit = view.get("rules", {}).get("knock_limit", 10)
    if kind == "next_hand":
        return _("the hand is over: deal the next one")
    if kind in ("take_upcard", "draw") and action.get("from", "discard") == "discard" and top:
        after = hand | BIT[top]
        shown = {"card": display(top)}
        if melds_with(hand, INDEX[top]):
            melded = [m for m in melds_of_mask(after) if m & BIT[top]]
            if melded:
                # Translators: meld is e.g. "7-8-9 of hearts" or "7♣ 7♦ 7♥".
                return _("take %(card)s: it makes %(meld)s") % {
                    **shown,
                    "meld": _group(cards_of(melded[0])),
                }
            return _("take %(card)s: it can make a meld with your cards") % shown
        return _("take %(card)s: it lowers your deadwood and keeps options open") % shown
    if kind == "pass" and top:
        return _("pass: %(card)s does not fit your hand") % {"card": display(top)}
    if kind == "draw":
        if top:
            return _("draw from the stock: %(card)s would not improve your hand") % {
                "card": display(top)
            }
        return _("draw from the stock")
    if kind == "big_gin":
        return _("Big Gin: all eleven cards meld")
    card = action.get("card")
    if not isinstance(card, str) or card not in BIT:
        return _("play on")
    rest = hand & ~BIT[card]
    left = deadwood_of_mask(rest)
    if kind == "gin":
        return _("gin: throw %(card)s and every other card melds") % {"card": display(card)}
    keeps = _keeps(rest)
    safety = _safety(view, card)
    parts = [p for p in (keeps, safety) if p]
    tail = ("; " + "; ".join(parts)) if parts else ""
    values = {"card": display(card), "left": left}
    if kind == "knock":
        # Translators: "left" is the deadwood count after the discard.
        reason = _("knock with %(card)s: %(left)s deadwood is low enough to win the hand")
    elif left <= limit:
        reason = _(
            "throw %(card)s but don't knock yet: with %(left)s deadwood, playing on for gin "
            "or an undercut is worth more"
        )
    else:
        reason = _("throw %(card)s (%(left)s deadwood left)")
    return reason % values + tail
