"""Bea's judgement of one decision: what she would have done, and what the difference cost.

A decision is judged from the mover's ``player_view`` at that moment and nothing else (their
hand, the pile, the public log): the same information set Bea plays from, so a judgement never
rests on the opponent's hidden cards or the stock order, and it names only the cards of the
action played and of Bea's action, both of which the mover could see.

Bea's action is the expert's (``bea.decide``). When it differs from the action played, both
are played out in the same ``worlds`` sampled worlds (the opponent's hand from what they took,
threw and passed on, and a shuffled stock; ``games.ai.playout``), the rest of the hand played
greedily by both sides, and each result priced by match equity (``games.ai.equity``) as a
chance of winning the match. The *cost* is how much lower the played action's mean is than
Bea's, in percentage points of that chance (never below 0: when the play-outs like the played
action as well or better, it cost nothing). Pure Python, no Django: the arena and the tests
run it without a database.
"""

from __future__ import annotations

import random
from typing import Any

from games.engine.cards import BIT
from games.engine.melds import deadwood_of_mask, discard_deadwoods_of_mask, melds_of_mask

from . import bea, equity, knowledge, playout
from .baseline import melds_with

#: Sampled worlds per judged decision: the bound on a decision's play-outs (two per world).
WORLDS = 64

Action = dict[str, Any]
Judgement = dict[str, Any]


def kind_of(phase: str) -> str | None:
    """The decision a phase asks for: ``take`` (the upcard), ``draw`` or ``discard``."""
    return {"upcard_offer": "take", "draw": "draw", "discard": "discard"}.get(phase)


def as_action(move: dict[str, Any]) -> Action:
    """A logged move (``state.moves``) as the action that made it, without seat or seed."""
    kind = move["type"]
    if kind == "draw":
        return {"type": "draw", "from": move.get("source", "stock")}
    if kind in ("discard", "knock", "gin"):
        return {"type": kind, "card": move["card"]}
    return {"type": kind}


def same(a: Action, b: Action) -> bool:
    """Two actions that end the same: any gin is worth the same, whichever card goes."""
    if a["type"] == b["type"] == "gin":
        return True
    return {k: a.get(k) for k in ("type", "card", "from")} == {
        k: b.get(k) for k in ("type", "card", "from")
    }


def judge(
    view: dict[str, Any], played: Action, rng: random.Random, worlds: int = WORLDS
) -> Judgement | None:
    """Bea's judgement of ``played`` in ``view`` (the mover's, before the move): the decision's
    ``kind``, the action ``played``, Bea's action ``bea`` and the ``cost``, and for a draw the
    face-up card it was about (``upcard`` or ``top``); None when there was nothing to decide (a
    single legal action, or none of the three decisions)."""
    kind = kind_of(view["phase"])
    legal = view["legal_actions"]
    if kind is None or len(legal) < 2:
        return None
    played = as_action(played) if "seat" in played else played
    mine = bea.decide(view, bea.STYLES["expert"], rng)
    cost = 0.0
    if not same(mine, played):
        values = _values(view, [mine, played], rng, worlds)
        cost = max(0.0, values[0] - values[1])
    judged = {"kind": kind, "played": played, "bea": mine, "cost": round(cost, 1)}
    if kind != "discard":
        judged["upcard" if kind == "take" else "top"] = view["discard_pile"][-1]
    return judged


def _values(
    view: dict[str, Any], actions: list[Action], rng: random.Random, worlds: int
) -> list[float]:
    """Each action's mean chance of winning the match (in percent, less today's), over the
    same sampled worlds."""
    known = knowledge.read(view)
    rules = view["rules"]
    worth = equity.worth(view)
    per_percent = equity.scale(int(rules["target"])) / 100
    totals = [0.0] * len(actions)
    for _ in range(worlds):
        opp, stock = playout.sample_world(known, rng, bea.sample_opponent)
        game = _Game(known, view, opp, stock)
        for i, action in enumerate(actions):
            totals[i] += worth(game.points(action)) / per_percent
    return [t / worlds for t in totals]


def _defender(opp: int, knocker: int) -> int:
    return bea.defender_deadwood(opp, melds_of_mask(knocker))


def _throw(held: int, taken: int) -> tuple[int, int]:
    """The greedy discard from eleven cards, never the card just taken from the pile: (its
    bit, the deadwood left)."""
    index, dw = bea.best_drop(held)
    if 1 << index != taken:
        return 1 << index, dw
    dw, index = min((d, i) for i, d in discard_deadwoods_of_mask(held) if 1 << i != taken)
    return 1 << index, dw


class _Game:
    """One sampled world, from which each action is played out (greedily after it)."""

    def __init__(self, known: knowledge.Knowledge, view: dict[str, Any], opp: int, stock: list):
        self.me = known.hand
        self.top = BIT[known.top] if known.top else 0
        self.opp = opp
        self.stock = stock  # drawn from its end; never changed
        self.rules = view["rules"]
        self.limit = self.rules["knock_limit"]
        self.first_offer = view["phase"] == "upcard_offer" and view["seat"] != view["dealer"]

    def points(self, action: Action) -> int:
        """Points to the mover of playing ``action`` and then the rest of the hand out."""
        kind = action["type"]
        if kind == "big_gin":
            return self.rules["big_gin_bonus"] + deadwood_of_mask(self.opp)
        if kind in ("knock", "gin"):
            left = self.me & ~BIT[action["card"]]
            return playout.settle(left, self.opp, self.rules, _defender)
        if kind == "discard":
            bit = BIT[action["card"]]
            return self._on(self.me & ~bit, self.opp, self.stock, bit)
        if kind == "take_upcard" or action.get("from") == "discard":
            return self._after_draw(self.me, self.opp, self.stock, self.top)
        if kind == "draw":
            return self._after_draw(self.me, self.opp, self.stock, 0)
        return self._passed()

    def _on(self, me: int, opp: int, stock: list, top: int) -> int:
        return playout.play_out(me, opp, stock, top, self.rules, bea.best_drop, _defender)

    def _settle(self, knocker: int, defender: int) -> int:
        return playout.settle(knocker, defender, self.rules, _defender)

    def _after_draw(self, me: int, opp: int, stock: list, top: int) -> int:
        """The mover takes ``top`` from the pile (0: draws from the stock), throws the least
        deadwood, knocks at the first chance, else the opponent plays on."""
        if not top:
            if len(stock) <= 2:
                return 0
            taken, stock = stock[-1], stock[:-1]
        else:
            taken = top
        held = me | taken
        thrown, dw = _throw(held, top)
        hand = held & ~thrown
        if dw <= self.limit:
            return self._settle(hand, opp)
        return self._on(hand, opp, stock, thrown)

    def _passed(self) -> int:
        """The upcard passed: the dealer may take it after the first pass; else the non-dealer
        draws from the stock."""
        me, opp, stock, top = self.me, self.opp, self.stock, self.top
        if not self.first_offer:
            # The dealer passed: the opponent, the non-dealer, must draw from the stock.
            if len(stock) <= 2:
                return 0
            taken, stock = stock[-1], stock[:-1]
            held = opp | taken
            thrown, dw = _throw(held, 0)
            if dw <= self.limit:
                return -self._settle(held & ~thrown, me)
            return self._mine(me, held & ~thrown, stock, thrown)
        if melds_with(opp, top.bit_length() - 1):
            held = opp | top
            thrown, dw = _throw(held, top)
            if dw <= self.limit:
                return -self._settle(held & ~thrown, me)
            return self._mine(me, held & ~thrown, stock, thrown)
        return self._after_draw(me, opp, stock, 0)

    def _mine(self, me: int, opp: int, stock: list, top: int) -> int:
        """The mover's turn as the play-outs play it: the pile's card if it melds."""
        return self._after_draw(me, opp, stock, top if melds_with(me, top.bit_length() - 1) else 0)
