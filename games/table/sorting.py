"""The orders of cards on the table: a meld's, a loose hand's, a hand laid open at its end,
and the one the player chose (a sort, or where they dragged the cards; ``games.arrange`` keeps
it)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy

from games.models import HandOrder, Seat

SUIT_ORDER = "CDHS"
RANK_ORDER = "A23456789TJQK"


def by_suit(code: str) -> tuple[int, int]:
    return (SUIT_ORDER.index(code[1]), RANK_ORDER.index(code[0]))


def by_rank(code: str) -> tuple[int, int]:
    return (RANK_ORDER.index(code[0]), SUIT_ORDER.index(code[1]))


def meld_order(meld: list[str]) -> list[str]:
    return sorted(meld, key=by_rank if len({c[1] for c in meld}) > 1 else by_suit)


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


SORT_LABELS = {
    HandOrder.Sort.MELDS: gettext_lazy("melds first"),
    HandOrder.Sort.SUIT: gettext_lazy("by suit"),
    HandOrder.Sort.RANK: gettext_lazy("by rank"),
}
SORT_CYCLE = (HandOrder.Sort.MELDS, HandOrder.Sort.SUIT, HandOrder.Sort.RANK)


def saved_order(seat: Seat | None) -> HandOrder | None:
    if seat is None or seat.pk is None:
        return None
    return HandOrder.objects.filter(seat=seat).first()


def order_info(order: HandOrder | None) -> dict[str, str]:
    """The Sort button: the sort in use and the one a press switches to."""
    sort = HandOrder.Sort(order.sort) if order is not None else HandOrder.Sort.MELDS
    following = SORT_CYCLE[(SORT_CYCLE.index(sort) + 1) % len(SORT_CYCLE)]
    return {"sort": sort.value, "next": following.value, "next_label": str(SORT_LABELS[following])}


def sorted_hand(view: dict[str, Any], order: HandOrder | None) -> list[tuple[str, bool, bool]]:
    """(code, melded, starts a group) for each card, in the order the player chose."""
    arrangement = view["arrangement"]
    melded = {c for meld in arrangement["melds"] for c in meld}
    hand = list(view["hand"])
    sort = order.sort if order is not None else HandOrder.Sort.MELDS
    if order is not None and order.cards and order.hand_number == view["hand_number"]:
        # The dragged order; a card drawn since goes to the end, where it is easy to find.
        kept = [c for c in order.cards if c in hand]
        codes = kept + [c for c in hand if c not in kept]
        return [(c, c in melded, False) for c in codes]
    if sort == HandOrder.Sort.MELDS:
        groups = [meld_order(meld) for meld in arrangement["melds"]]
        loose = sorted(arrangement["deadwood_cards"], key=by_suit)
        if loose:
            groups.append(loose)
        return [(c, c in melded, i == 0) for group in groups for i, c in enumerate(group)]
    key = by_suit if sort == HandOrder.Sort.SUIT else by_rank
    at = 1 if sort == HandOrder.Sort.SUIT else 0
    codes = sorted(hand, key=key)
    return [(c, c in melded, i > 0 and codes[i - 1][at] != c[at]) for i, c in enumerate(codes)]
