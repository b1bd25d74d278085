"""The orders of cards on the table, pure Python (no Django): a meld's, a loose hand's, and a
hand in the sort or the dragged order its player chose. The online table (``hand``) and Bea
offline (``games/offline``, which runs this very file in the browser) order cards by it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

SUIT_ORDER = "CDHS"
RANK_ORDER = "A23456789TJQK"
# The sorts a player may choose, in the order a Sort button cycles through them.
MELDS, SUIT, RANK = "melds", "suit", "rank"
SORT_CYCLE = (MELDS, SUIT, RANK)


def by_suit(code: str) -> tuple[int, int]:
    return (SUIT_ORDER.index(code[1]), RANK_ORDER.index(code[0]))


def by_rank(code: str) -> tuple[int, int]:
    return (RANK_ORDER.index(code[0]), SUIT_ORDER.index(code[1]))


def meld_order(meld: list[str]) -> list[str]:
    return sorted(meld, key=by_rank if len({c[1] for c in meld}) > 1 else by_suit)


def next_sort(sort: str) -> str:
    """The sort a press of Sort switches to from ``sort``."""
    return SORT_CYCLE[(SORT_CYCLE.index(sort) + 1) % len(SORT_CYCLE)]


def arranged(
    view: dict[str, Any], sort: str, dragged: Sequence[str] = ()
) -> list[tuple[str, bool, bool]]:
    """(code, melded, starts a group) for each card of ``view``'s hand: in ``dragged`` order
    when the player dragged cards this hand (a card drawn since goes to the end, where it is
    easy to find), else in ``sort``."""
    arrangement = view["arrangement"]
    melded = {c for meld in arrangement["melds"] for c in meld}
    hand = list(view["hand"])
    if dragged:
        kept = [c for c in dragged if c in hand]
        codes = kept + [c for c in hand if c not in kept]
        return [(c, c in melded, False) for c in codes]
    if sort == MELDS:
        groups = [meld_order(meld) for meld in arrangement["melds"]]
        loose = sorted(arrangement["deadwood_cards"], key=by_suit)
        if loose:
            groups.append(loose)
        return [(c, c in melded, i == 0) for group in groups for i, c in enumerate(group)]
    key = by_suit if sort == SUIT else by_rank
    at = 1 if sort == SUIT else 0
    codes = sorted(hand, key=key)
    return [(c, c in melded, i > 0 and codes[i - 1][at] != c[at]) for i, c in enumerate(codes)]


def laid_open(last: dict[str, Any]) -> dict[str, Any]:
    """A finished hand's cards in the order they are laid open, by seat: each meld (the
    knocker's with the cards laid off on it, where they fit), the deadwood by suit, and the
    cards laid off, by suit."""
    layoffs = last.get("layoffs") or []
    laid_on: dict[int, list[str]] = {}
    for layoff in layoffs:
        laid_on.setdefault(layoff["meld"], []).append(layoff["card"])
    return {
        "melds": [
            [
                meld_order([*meld, *(laid_on.get(index, []) if s == last["knocker"] else [])])
                for index, meld in enumerate(last["melds"][s])
            ]
            for s in (0, 1)
        ],
        "deadwood": [sorted(last["deadwood_cards"][s], key=by_suit) for s in (0, 1)],
        "laid_off": sorted({layoff["card"] for layoff in layoffs}, key=by_suit),
    }


def on_the_table(view: dict[str, Any], sort: str, dragged: Sequence[str] = ()) -> dict[str, Any]:
    """Every order of cards a table draws for ``view``: its hand in ``sort`` (or ``dragged``:
    ``arranged``), the sort a press of Sort switches to, and the last hand laid open (None
    before any hand has ended)."""
    last = view["last_hand"]
    return {
        "sort": sort,
        "next": next_sort(sort),
        "hand": arranged(view, sort, dragged),
        "laid": laid_open(last) if last else None,
    }
