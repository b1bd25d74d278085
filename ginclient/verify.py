"""Check a finished hand's shuffle outside the site: docs/fairness.md, written again from the
document alone (nothing of the site's code), so that a server that changed the deck, or its
own code, would fail here.

``check(replay)`` takes the JSON of ``GET /api/v1/matches/{id}/hands/{n}/replay`` and returns
what it found: ``ok`` and the list of problems (empty when the hand was dealt and drawn from
exactly what the server committed to).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

SCHEME = "sha256-fisher-yates-1"
CARDS = [rank + suit for suit in "CDHS" for rank in "A23456789TJQK"]


@dataclass
class Verdict:
    hand_number: int
    problems: list[str] = field(default_factory=list)
    checked_draws: int = 0
    cuts: int = 0

    @property
    def ok(self) -> bool:
        return not self.problems


def _numbers(key: str) -> Iterator[int]:
    block = 0
    while True:
        digest = hashlib.sha256(f"{key}:{block}".encode()).digest()
        for at in range(0, 32, 4):
            yield int.from_bytes(digest[at : at + 4], "big")
        block += 1


def shuffle(cards: list[str], key: str) -> list[str]:
    out = list(cards)
    numbers = _numbers(key)
    for i in range(len(out) - 1, 0, -1):
        bound = i + 1
        limit = 2**32 - 2**32 % bound
        x = next(numbers)
        while x >= limit:
            x = next(numbers)
        j = x % bound
        out[i], out[j] = out[j], out[i]
    return out


def check(replay: dict[str, Any]) -> Verdict:
    """Recompute the hand from the revealed server seed and the players' seeds."""
    verdict = Verdict(replay.get("hand_number", 0))
    fair = replay.get("shuffle")
    if not fair:
        verdict.problems.append("this hand was not dealt by the provably fair shuffle")
        return verdict
    if fair.get("scheme") != SCHEME:
        verdict.problems.append(f"unknown scheme {fair.get('scheme')!r}")
        return verdict
    server = str(fair.get("server_seed") or "")
    if hashlib.sha256(server.encode()).hexdigest() != fair.get("commitment"):
        verdict.problems.append("the server seed does not match the commitment")
        return verdict
    deck = shuffle(CARDS, f"deck:{server}")
    moves = replay["moves"]
    dealer = replay["dealer"]
    deal = moves[0]
    dealt = {1 - dealer: deck[0:10], dealer: deck[10:20]}
    for seat in (0, 1):
        if sorted(deal["hands"][seat]) != sorted(dealt[seat]):
            verdict.problems.append(f"seat {seat} was not dealt the committed cards")
    if deal["discard_pile"] != [deck[20]]:
        verdict.problems.append("the upcard is not the committed one")
    stock = deck[21:]
    cuts = {cut["move"]: cut for cut in fair.get("cuts") or []}
    for move in moves[1:]:
        cut = cuts.get(move["index"])
        if cut is not None:
            stock = shuffle(stock, f"cut:{server}:{cut['seat']}:{cut['seed']}")
            verdict.cuts += 1
        action = move["action"] or {}
        if action.get("type") == "draw" and action.get("source") == "stock":
            if not stock or action.get("card") != stock[0]:
                verdict.problems.append(
                    f"move {move['index']}: {action.get('card')} was drawn, "
                    f"the stock's top was {stock[0] if stock else 'nothing'}"
                )
                return verdict
            stock = stock[1:]
            verdict.checked_draws += 1
        if move["stock_count"] != len(stock):
            verdict.problems.append(f"move {move['index']}: the stock does not add up")
            return verdict
    return verdict
