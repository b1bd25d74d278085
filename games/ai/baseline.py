"""SimpleGinRummyPlayer, the baseline of the EAAI-2021 Gin Rummy challenge, on this site's views.

A faithful port of Todd Neller's reference player: it takes the face-up card only if the card
would be part of a meld in its hand; otherwise it draws from the stock. It discards, at random
among ties, a card leaving the least deadwood, never the face-up card it just took and never a
card that would repeat one of its (drawn, discarded) pairs of this hand. It knocks at the first
chance (deadwood within the knock limit after the discard) and goes gin when it can.

It is stateless: the pairs it must not repeat are read back from the hand's public log.
"""

from __future__ import annotations

import random
from typing import Any

from games.engine.cards import ALL_CARDS, BIT, INDEX, mask_of
from games.engine.melds import discard_deadwoods_of_mask


def melds_with(hand: int, index: int) -> bool:
    """True if the card at ``index`` forms a meld (any set or run) with cards of ``hand``."""
    if (hand & _SAME_RANK[index]).bit_count() >= 2:
        return True
    # A run of three through the card: both other cards of one of its windows are held.
    return any(hand & pair == pair for pair in _RUN_PAIRS[index])


def _run_pairs(index: int) -> tuple[int, ...]:
    """For each run of three through the card at ``index``, the mask of its other two cards."""
    rank, base = index % 13, index - index % 13
    pairs = []
    for low in (rank - 2, rank - 1, rank):
        if low >= 0 and low + 2 < 13:
            window = sum(1 << (base + r) for r in range(low, low + 3))
            pairs.append(window & ~(1 << index))
    return tuple(pairs)


#: The other three cards of each card's rank, and the two-card rest of each run through it.
_SAME_RANK = [sum(1 << (s * 13 + i % 13) for s in range(4)) & ~(1 << i) for i in range(52)]
_RUN_PAIRS = [_run_pairs(i) for i in range(52)]


def _draw_discard_pairs(view: dict[str, Any]) -> set[tuple[str, str]]:
    """This seat's (drawn card, discarded card) pairs so far in the hand."""
    pairs = set()
    drawn: str | None = None
    for move in view.get("moves") or []:
        if move.get("seat") != view["seat"]:
            continue
        if move.get("type") in ("take_upcard", "draw"):
            drawn = move.get("card")
        elif move.get("type") == "discard" and drawn is not None:
            pairs.add((drawn, move["card"]))
            drawn = None
    return pairs


def _just_drawn(view: dict[str, Any]) -> str | None:
    moves = view.get("moves") or []
    if moves and moves[-1].get("seat") == view["seat"]:
        last = moves[-1]
        if last.get("type") in ("take_upcard", "draw"):
            return last.get("card")
    return None


def choose(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The baseline's action for a view."""
    legal = view["legal_actions"]
    phase = view["phase"]
    if phase in ("hand_over", "match_over"):
        return legal[0] if legal else {"type": "next_hand"}
    hand = mask_of(view["hand"])
    if phase in ("upcard_offer", "draw"):
        top = view["discard_pile"][-1] if view["discard_pile"] else None
        take = top is not None and melds_with(hand, INDEX[top])
        if phase == "upcard_offer":
            return {"type": "take_upcard" if take else "pass"}
        if take and {"type": "draw", "from": "discard"} in legal:
            return {"type": "draw", "from": "discard"}
        return {"type": "draw", "from": "stock"}
    if {"type": "big_gin"} in legal:
        return {"type": "big_gin"}
    banned = view.get("cannot_discard")
    drawn = _just_drawn(view)
    pairs = _draw_discard_pairs(view)
    after = {ALL_CARDS[i]: dw for i, dw in discard_deadwoods_of_mask(hand)}
    candidates = [c for c in view["hand"] if c != banned and (drawn, c) not in pairs]
    if not candidates:
        candidates = [c for c in view["hand"] if c != banned]
    least = min(after[c] for c in candidates)
    ties = sorted((c for c in candidates if after[c] == least), key=BIT.__getitem__)
    card = ties[rng.randrange(len(ties))]
    limit = view["rules"]["knock_limit"]
    if least == 0:
        return {"type": "gin", "card": card}
    if least <= limit:
        return {"type": "knock", "card": card}
    return {"type": "discard", "card": card}
