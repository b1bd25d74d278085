"""Hand-made hands where the right review is known, each a stacked deck and its moves
(``tests.engine.helpers``: seat 0, alice, acts first; seat 1, bob, deals).

In both, both players pass the upcard 5♠, and then, turn after turn, alice draws from the stock
and throws one of nine cards that bob takes straight from the pile: 2-3-4♥, the 7s of clubs,
diamonds and spades, 9-10-J♦. Bob throws a card he never needed each time. Alice sees every
card he takes, so she knows when most of his hand is melded.

FEEDS_GIN: alice's last throw, J♦, completes bob's third meld in plain sight (he holds 9-10♦,
which she saw him take). His hidden 8♦ makes it gin. Bea would have thrown a king (bob threw
K♦ and K♥), and alice cannot knock either way.

UNDERCUT: bob takes all nine, so alice knows nine of his ten cards are melded, and no card
left unseen can join his melds (A♥, 5♥ and 8♦ are on the pile, 7♥ and Q♦ in her hand): whatever
his tenth card is, it is at most 10. She knocks with 10 (K♣) and his A♠ undercuts her. Bea
would have held on.
"""

from __future__ import annotations

from tests.engine.helpers import stacked

FEEDS = ["2H", "3H", "4H", "7C", "7D", "7S", "9D", "TD", "JD"]


def _feeding(junk: list[str], feeds: int) -> tuple[str, ...]:
    return (
        "0 pass",
        "1 pass",
        *(
            move
            for feed, thrown in zip(FEEDS[:feeds], junk, strict=False)
            for move in (
                "0 draw stock",
                f"0 discard {feed}",
                "1 draw discard",
                f"1 discard {thrown}",
            )
        ),
    )


_GIN_JUNK = ["KD", "KH", "QC", "JC", "8S", "6S", "3S", "5D", "2C"]
FEEDS_GIN_DECK = stacked(
    " ".join([*FEEDS, "KC"]),
    " ".join(["8D", *_GIN_JUNK]),
    "5S",
    "QS QH QD 4C 5C 6C 8H 9H KS",
)
FEEDS_GIN = (*_feeding(_GIN_JUNK, 8), "0 draw stock", "0 discard JD", "1 draw discard", "1 gin 2C")
# The position of alice's J♦ (the state after it is number FEEDS_GIN_AT of the hand).
FEEDS_GIN_AT = len(FEEDS_GIN) - 2

_UNDERCUT_JUNK = ["KD", "KH", "QC", "JC", "8S", "5H", "AH", "8D", "2C"]
UNDERCUT_DECK = stacked(
    " ".join([*FEEDS, "KC"]),
    " ".join(["AS", *_UNDERCUT_JUNK]),
    "5S",
    "QS QH QD 4C 5C 6C 7H 8H 9H JS",
)
UNDERCUT = (*_feeding(_UNDERCUT_JUNK, 9), "0 draw stock", "0 knock JS")
UNDERCUT_AT = len(UNDERCUT)
