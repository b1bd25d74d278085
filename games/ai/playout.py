"""Monte Carlo play-outs: price a discard (or a knock) by playing the rest of the hand out.

A *world* is one guess at what Bea cannot see: the opponent's hidden cards (sampled from
``Knowledge.p_opp``, so what they took, threw and passed on shapes it) and the order of the
stock (the unseen cards left over, shuffled). Every candidate action is played out in the same
worlds (common random numbers), so the comparison between candidates is much less noisy than
each candidate's own average.

Both sides play the rest of the hand with a cheap greedy policy, the way a typical opponent
plays: take the face-up card if it melds, else draw from the stock; throw the card leaving the
least deadwood; knock at the first chance, gin at 0. A play-out costs a few hundred
microseconds: hands are masks and the deadwood tables of ``games.engine.melds`` do the work.
"""

from __future__ import annotations

import random
from typing import Any

from games.engine.cards import BIT
from games.engine.melds import deadwood_of_mask, discard_deadwoods_of_mask

from . import equity
from .baseline import melds_with
from .knowledge import Knowledge

MAX_TURNS = 40


def card_bits(mask: int) -> list[int]:
    """The cards of a mask, each as a mask of its one bit (a stock to shuffle and pop)."""
    out = []
    while mask:
        low = mask & -mask
        mask ^= low
        out.append(low)
    return out


def sample_world(known: Knowledge, rng: random.Random, sample: Any) -> tuple[int, list[int]]:
    """One world: the opponent's hand and the stock, top card last.

    An opponent who has already discarded this hand passed up every chance to knock, so a
    sampled hand they could knock with is drawn again (a few times at most)."""
    limit = known.knock_limit
    opp = sample(known, rng)
    if known.opp_threw:
        for _ in range(3):
            if deadwood_of_mask(opp) > limit:
                break
            opp = sample(known, rng)
    stock = card_bits(known.unseen & ~opp)
    rng.shuffle(stock)
    return opp, stock


def _throw(held: int, taken: int, best_drop: Any) -> tuple[int, int]:
    """The greedy discard from eleven cards, never the card just taken: (bit, deadwood left)."""
    index, dw = best_drop(held)
    if 1 << index != taken:
        return 1 << index, dw
    dw, index = min((d, i) for i, d in discard_deadwoods_of_mask(held) if 1 << i != taken)
    return 1 << index, dw


def settle(knocker: int, defender: int, rules: dict[str, Any], defender_deadwood: Any) -> int:
    """Points to the knocker (negative: to the defender) when ``knocker`` knocks or goes gin."""
    mine = deadwood_of_mask(knocker)
    if mine == 0:
        return rules["gin_bonus"] + deadwood_of_mask(defender)
    theirs = defender_deadwood(defender, knocker)
    if theirs > mine:
        return theirs - mine
    return -(mine - theirs + rules["undercut_bonus"])


def play_out(
    me: int,
    opp: int,
    stock: list[int],
    top: int,
    rules: dict[str, Any],
    best_drop: Any,
    defender_deadwood: Any,
) -> int:
    """Points to Bea from here, the opponent to draw with ``top`` face up. ``stock`` is drawn
    from its end and is not changed."""
    limit = rules["knock_limit"]
    n = len(stock)
    turn = 1  # 1: the opponent, 0: Bea
    # Greedy players can pass cards back and forth through the pile forever: a play-out that
    # outlasts any real hand is called a draw.
    for _ in range(MAX_TURNS):
        hand = opp if turn else me
        index = top.bit_length() - 1
        if melds_with(hand, index):
            taken = top
        else:
            if n <= 2:
                return 0
            n -= 1
            taken = stock[n]
        held = hand | taken
        top, dw = _throw(held, taken if taken == top else 0, best_drop)
        hand = held & ~top
        if dw <= limit:
            if turn:
                return -settle(hand, me, rules, defender_deadwood)
            return settle(hand, opp, rules, defender_deadwood)
        if n <= 2:
            return 0
        if turn:
            opp = hand
        else:
            me = hand
        turn ^= 1
    return 0


def value_actions(
    known: Knowledge,
    rules: dict[str, Any],
    actions: list[tuple[str, str]],
    worlds: int,
    rng: random.Random,
    sample: Any,
    best_drop: Any,
    defender_deadwood: Any,
    worth: Any = None,
) -> dict[tuple[str, str], float]:
    """Mean points to Bea of each ``(kind, card)`` action (kind ``"discard"`` or ``"knock"``)
    from her eleven-card hand, over the same ``worlds`` sampled worlds. ``worth`` maps a
    hand's points to what they are worth (match equity); without it points are points."""
    value = worth or equity.plain
    totals = dict.fromkeys(actions, 0.0)
    for _ in range(worlds):
        opp, stock = sample_world(known, rng, sample)
        for action in actions:
            kind, card = action
            bit = BIT[card]
            me = known.hand & ~bit
            if kind == "knock":
                totals[action] += value(settle(me, opp, rules, defender_deadwood))
            else:
                points = play_out(me, opp, stock, bit, rules, best_drop, defender_deadwood)
                totals[action] += value(points)
    return {a: t / worlds for a, t in totals.items()}
