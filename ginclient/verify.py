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

SEEDED = "sha256-seeded-deal-2"
CUT = "sha256-fisher-yates-1"  # matches made before the seeded deal
CARDS = [rank + suit for suit in "CDHS" for rank in "A23456789TJQK"]


@dataclass
class Verdict:
    hand_number: int
    problems: list[str] = field(default_factory=list)
    checked_draws: int = 0
    cuts: int = 0
    # The players' own seeds the deal came from (the seeded scheme): how many, and which.
    seeds: list[str] = field(default_factory=list)

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
    if fair.get("scheme") not in (SEEDED, CUT):
        verdict.problems.append(f"unknown scheme {fair.get('scheme')!r}")
        return verdict
    server = str(fair.get("server_seed") or "")
    if hashlib.sha256(server.encode()).hexdigest() != fair.get("commitment"):
        verdict.problems.append("the server seed does not match the commitment")
        return verdict
    if fair["scheme"] == SEEDED:
        seeds = [str(seed) for seed in fair.get("seeds") or []]
        if len(seeds) != 2 or any(":" in seed for seed in seeds):
            verdict.problems.append("the players' seeds are not two seeds")
            return verdict
        verdict.seeds = [seed for seed in seeds if seed]
        deck = shuffle(CARDS, f"deal:{server}:{seeds[0]}:{seeds[1]}")
    else:
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
    _walk(verdict, moves, deck[21:], server, fair.get("cuts") or [])
    return verdict


def _walk(
    verdict: Verdict, moves: list[dict[str, Any]], stock: list[str], server: str, cuts: list[Any]
) -> None:
    """Every draw from the stock takes its top card (after the older scheme's cuts)."""
    cut_at = {cut["move"]: cut for cut in cuts}
    for move in moves[1:]:
        cut = cut_at.get(move["index"])
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
                return
            stock = stock[1:]
            verdict.checked_draws += 1
        if move["stock_count"] != len(stock):
            verdict.problems.append(f"move {move['index']}: the stock does not add up")
            return
