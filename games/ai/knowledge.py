"""What Bea can know about a hand, read from a ``player_view`` and nothing else.

The view carries the public log of the hand (``moves``): every discard, every pick-up from the pile
(with its card) and every stock draw (without the card when the opponent drew). Replaying that log
against the pile tells which cards the opponent took, threw and passed on, and from that a
probability for each unseen card of being in the opponent's hand.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.engine.cards import ALL_CARDS, INDEX, mask_of

# How much one observation moves the odds of a related card being held. A card the opponent threw
# or passed on suggests they hold nothing that melds with it; a card they took says they do.
_THREW = {0: 0.45, 1: 0.55, 2: 0.8}
_PASSED = {0: 0.6, 1: 0.65, 2: 0.85}
_TOOK = {0: 2.2, 1: 2.0, 2: 1.4}
_MAX_P = 0.95


@dataclass
class Knowledge:
    """Bea's picture of the hand from one seat's view."""

    seat: int
    hand: int  # mask of our cards
    pile: list[str]
    pile_mask: int
    opp_known: int  # cards the opponent took from the pile and still holds
    unseen: int  # not ours, not in the pile, not known to be the opponent's
    opp_hidden: int  # how many of the opponent's cards are unseen
    stock_count: int
    knock_limit: int = 10
    opp_took: list[str] = field(default_factory=list)
    opp_threw: list[str] = field(default_factory=list)
    opp_passed: list[str] = field(default_factory=list)
    we_threw: list[str] = field(default_factory=list)
    opp_stock_draws: int = 0
    # Probability that each card (by index) is in the opponent's hand: 1 for known, 0 for seen.
    p_opp: list[float] = field(default_factory=lambda: [0.0] * 52)
    # The unseen cards that may be the opponent's: (1 / p, bit), lowest card first.
    sampling: list[tuple[float, int]] = field(default_factory=list, repr=False)

    @property
    def top(self) -> str | None:
        return self.pile[-1] if self.pile else None


def _initial_pile(pile: list[str], moves: list[dict[str, Any]]) -> list[str]:
    """Run the log backwards from today's pile to the pile as dealt (the upcard alone)."""
    start = list(pile)
    for move in reversed(moves):
        kind = move.get("type")
        if kind in ("discard", "knock", "gin") and move.get("card") and start:
            start.pop()
        elif move.get("source") == "discard" and move.get("card"):
            start.append(move["card"])
    return start


def read(view: dict[str, Any]) -> Knowledge:
    """Everything Bea knows, computed from the view alone."""
    seat = view["seat"]
    hand = mask_of(view["hand"])
    pile = list(view["discard_pile"])
    pile_mask = mask_of(pile)
    opp_known = mask_of(view.get("known_opponent_cards") or [])
    unseen = ((1 << 52) - 1) & ~hand & ~pile_mask & ~opp_known
    opp_count = view["opponent_card_count"]
    known = Knowledge(
        seat=seat,
        hand=hand,
        pile=pile,
        pile_mask=pile_mask,
        opp_known=opp_known,
        unseen=unseen,
        opp_hidden=max(0, opp_count - opp_known.bit_count()),
        stock_count=view["stock_count"],
        knock_limit=view.get("rules", {}).get("knock_limit", 10),
    )
    moves = view.get("moves") or []
    current = _initial_pile(pile, moves)
    for move in moves:
        kind = move.get("type")
        mine = move.get("seat") == seat
        if kind == "pass" or (kind == "draw" and move.get("source") == "stock"):
            if not mine and current:
                known.opp_passed.append(current[-1])
            if kind == "draw" and not mine:
                known.opp_stock_draws += 1
        elif move.get("source") == "discard":
            if current:
                current.pop()
            if not mine and move.get("card"):
                known.opp_took.append(move["card"])
        elif kind in ("discard", "knock", "gin") and move.get("card"):
            current.append(move["card"])
            (known.we_threw if mine else known.opp_threw).append(move["card"])
    _estimate(known)
    return known


def _related(index: int) -> list[tuple[int, int]]:
    """Cards related to one card: (index, distance) with distance 0 for the same rank, 1 or 2
    for a neighbour in the same suit."""
    rank, suit = index % 13, index // 13
    out = [(s * 13 + rank, 0) for s in range(4) if s != suit]
    for step in (-2, -1, 1, 2):
        if 0 <= rank + step < 13:
            out.append((suit * 13 + rank + step, abs(step)))
    return out


def _estimate(known: Knowledge) -> None:
    """Fill ``p_opp``: the chance each unseen card is among the opponent's hidden cards."""
    weight = [1.0] * 52
    for cards, table in (
        (known.opp_threw, _THREW),
        (known.opp_passed, _PASSED),
        (known.opp_took, _TOOK),
    ):
        for code in cards:
            for index, distance in _related(INDEX[code]):
                weight[index] *= table[distance]
    p = [0.0] * 52
    unseen = [i for i in range(52) if known.unseen >> i & 1]
    total = sum(weight[i] for i in unseen)
    if unseen and total > 0 and known.opp_hidden:
        scale = known.opp_hidden / total
        # Capping one card's probability moves the excess to the others, so rescale a few times.
        for _ in range(3):
            capped = [min(_MAX_P, weight[i] * scale) for i in unseen]
            mass = sum(capped)
            if mass <= 0 or abs(mass - known.opp_hidden) < 1e-6:
                break
            scale *= known.opp_hidden / mass
        for i in unseen:
            p[i] = min(_MAX_P, weight[i] * scale)
    known.sampling = [(1.0 / p[i], 1 << i) for i in unseen if p[i] > 0]
    m = known.opp_known
    while m:
        low = m & -m
        p[low.bit_length() - 1] = 1.0
        m ^= low
    known.p_opp = p


def danger(known: Knowledge, index: int) -> float:
    """The chance that the opponent can meld the card at ``index`` if we throw it: they hold two
    cards that make a set or a run with it (pairs treated as independent)."""
    p = known.p_opp
    rank, suit = index % 13, index // 13
    same = [p[s * 13 + rank] for s in range(4) if s != suit]
    a, b, c = same
    p_set = a * b + a * c + b * c - 2 * a * b * c
    base = suit * 13

    def at(r: int) -> float:
        return p[base + r] if 0 <= r < 13 else 0.0

    m2, m1, p1, p2 = at(rank - 2), at(rank - 1), at(rank + 1), at(rank + 2)
    no_run = (1 - m2 * m1) * (1 - m1 * p1) * (1 - p1 * p2)
    return 1 - (1 - p_set) * no_run


def code(index: int) -> str:
    return ALL_CARDS[index]
