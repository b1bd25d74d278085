"""Cards: codes, points and the bitmask form the fast paths use.

A card is written rank + suit (``"AS"``, ``"TD"``, ``"QH"``). Internally a card is also an index
``suit * 13 + rank`` (rank 0 = ace ... 12 = king) and a hand is a 52-bit mask, one bit per card, so
that the thirteen cards of a suit sit side by side and a run is a row of adjacent bits.
"""

from __future__ import annotations

from collections.abc import Iterable

RANKS = "A23456789TJQK"
SUITS = "CDHS"
SUIT_GLYPHS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
RANK_NAMES = {"T": "10"}

#: Every code in index order (clubs A-K, diamonds A-K, hearts A-K, spades A-K).
ALL_CARDS: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)
INDEX: dict[str, int] = {code: i for i, code in enumerate(ALL_CARDS)}
BIT: dict[str, int] = {code: 1 << i for i, code in enumerate(ALL_CARDS)}
FULL_DECK_MASK = (1 << 52) - 1

#: Points by rank index: ace 1, two to ten face value, court cards 10.
RANK_POINTS: tuple[int, ...] = tuple(min(r + 1, 10) for r in range(13))
POINTS: dict[str, int] = {code: RANK_POINTS[INDEX[code] % 13] for code in ALL_CARDS}


def is_card(value: object) -> bool:
    """True for a well-formed card code such as ``"TD"``."""
    return isinstance(value, str) and value in INDEX


def rank_of(code: str) -> int:
    """Rank index 0 (ace) to 12 (king)."""
    return INDEX[code] % 13


def suit_of(code: str) -> int:
    """Suit index 0-3 in the order clubs, diamonds, hearts, spades."""
    return INDEX[code] // 13


def points(code: str) -> int:
    """Deadwood points of one card."""
    return POINTS[code]


def mask_of(cards: Iterable[str]) -> int:
    """The bitmask of a collection of codes (duplicates collapse)."""
    m = 0
    for code in cards:
        m |= BIT[code]
    return m


def cards_of(mask: int) -> list[str]:
    """Codes of a mask in index order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(ALL_CARDS[low.bit_length() - 1])
        mask ^= low
    return out


def mask_points(mask: int) -> int:
    """Sum of the points of the cards in a mask."""
    total = 0
    while mask:
        low = mask & -mask
        total += RANK_POINTS[(low.bit_length() - 1) % 13]
        mask ^= low
    return total


def sort_key(code: str) -> tuple[int, int]:
    """Order for display: by suit, then rank."""
    i = INDEX[code]
    return (i // 13, i % 13)


def display(code: str) -> str:
    """A human label such as ``10\u2666``; never used on the wire."""
    return RANK_NAMES.get(code[0], code[0]) + SUIT_GLYPHS[code[1]]
