"""Bea's play: one evaluation, tuned per level.

Every decision reduces to scoring ten-card hands. A hand's *value* mixes its deadwood now with the
deadwood expected one stock draw later (each unseen card weighted by the chance it is in the stock
rather than in the opponent's hand), so a hand with many live ways to improve beats a hand with
the same deadwood and dead draws. A discard also pays for its *danger*: the chance that the
opponent melds it. Knocking is decided by sampling the opponent's hand from what they took, threw
and passed on, and counting how often Bea would be undercut.
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from games.engine.cards import ALL_CARDS, BIT, INDEX, RANK_POINTS
from games.engine.melds import (
    best_discard_of_mask,
    deadwood_of_mask,
    discard_deadwoods_of_mask,
    layoffs_onto,
    melds_of_mask,
)

from . import equity, knowledge, playout
from .baseline import melds_with
from .knowledge import Knowledge


@dataclass(frozen=True)
class Style:
    """The knobs that make a level."""

    lookahead: float  # weight of the expected deadwood after the next draw (0: deadwood only)
    danger: float  # deadwood points a discard's danger costs (0: ignore the opponent)
    noise: float  # chance of a careless discard (easy)
    careless_knock: float  # chance of skipping a knock, or knocking blind (easy)
    knock_samples: int  # opponent hands sampled to judge a knock (0: knock at first chance)
    max_undercut: float  # the undercut risk Bea accepts early in a hand
    take_margin: float  # how much better taking the face-up card must look than the stock
    infer_no_knock: bool  # assume an opponent who could have knocked would have
    rollouts: int = 0  # play-outs comparing a knock with holding on (0: undercut risk only)
    knock_margin: float = 0.0  # points a knock may trail holding on and still be preferred
    # (negative: points it must lead by)
    reach: float = 0.0  # points a sure chance to knock after the next draw is worth
    defend: float = 0.0  # how fast the look-ahead gives way to plain deadwood per opponent turn
    worlds: int = 0  # sampled worlds to play close discards out in (0: the value alone decides)
    candidates: int = 4  # at most this many discards are played out
    gap: float = 1.0  # how far behind the best value a discard may be and still be played out
    match_aware: bool = False  # weigh hand results by match equity rather than raw points


STYLES: dict[str, Style] = {
    # Throws a loose card at random a third of the time and skips half its knocks.
    "easy": Style(0.0, 0.0, 0.35, 0.5, 0, 1.0, 0.0, False),
    # Least deadwood now, a face-up card only if it melds, knocks at the first chance.
    "medium": Style(0.0, 0.0, 0.0, 0.0, 0, 1.0, 0.0, False),
    # Looks one draw ahead with the live cards, takes any face-up card that improves the hand.
    # Arena runs showed the danger term neither helped nor hurt against the baseline here.
    "hard": Style(0.6, 0.0, 0.0, 0.0, 0, 1.0, 0.5, False),
    # Values a hand by its deadwood after the next draw alone, adds discard safety, and weighs
    # each knock against play-outs of holding on for gin or an undercut, with the opponent's hand
    # sampled from what they took, threw and passed on, every result priced by match equity.
    # The play-outs undervalue holding on (in them Bea never takes from the pile and knocks only
    # with gin), so a knock must beat them by 20 points: arena runs against the baseline went
    # from 68% at 0 to 75% at -15 and -25 (docs/bea.md). Discards that the value finds within a
    # point of each other are played out in 40 sampled worlds (``playout``).
    "expert": Style(
        1.0,
        1.5,
        0.0,
        0.0,
        60,
        0.2,
        1.0,
        True,
        rollouts=40,
        knock_margin=-20.0,
        worlds=40,
        gap=1.0,
        match_aware=True,
    ),
}


# --- Hand values ------------------------------------------------------------------------------


def _stock_odds(known: Knowledge) -> list[tuple[int, float]]:
    """Each unseen card's bit and the chance it is in the stock."""
    p = known.p_opp
    out = []
    m = known.unseen
    while m:
        low = m & -m
        m ^= low
        out.append((low, 1.0 - p[low.bit_length() - 1]))
    return out


def _neighbours(index: int) -> int:
    """The cards that can share a meld with one card: its rank, and two either side in its suit."""
    rank, suit = index % 13, index // 13
    out = 0
    for s in range(4):
        out |= 1 << (s * 13 + rank)
    for step in (-2, -1, 1, 2):
        if 0 <= rank + step < 13:
            out |= 1 << (suit * 13 + rank + step)
    return out & ~(1 << index)


NEIGHBOURS = [_neighbours(i) for i in range(52)]
POINTS_OF_BIT = {1 << i: RANK_POINTS[i % 13] for i in range(52)}


@lru_cache(maxsize=1 << 17)
def best_drop(mask: int) -> tuple[int, int]:
    """``best_discard_of_mask``, remembered: self-play and look-ahead ask for the same hands."""
    return best_discard_of_mask(mask)


def zone_of(mask: int) -> int:
    zone = 0
    m = mask
    while m:
        low = m & -m
        m ^= low
        zone |= NEIGHBOURS[low.bit_length() - 1]
    return zone


def next_draw(mask: int, stock: list[tuple[int, float]], limit: int) -> tuple[float, float]:
    """For a ten-card hand and one stock draw followed by the best discard: the expected least
    deadwood, and the chance of being able to knock (deadwood within ``limit``)."""
    dw = deadwood_of_mask(mask)
    zone = zone_of(mask)
    # A card that shares no meld with the hand stays deadwood: keeping it means dropping the
    # hand's best card to drop, the same for every such card, so it is computed once.
    spare = -1
    total = weight = knock = 0.0
    for bit, q in stock:
        if bit & zone:
            value = best_drop(mask | bit)[1]
        else:
            if spare < 0:
                spare = best_drop(mask)[1]
            value = min(dw, spare + POINTS_OF_BIT[bit])
        total += q * value
        weight += q
        if value <= limit:
            knock += q
    if not weight:
        return float(dw), float(dw <= limit)
    return total / weight, knock / weight


def expected_next(mask: int, stock: list[tuple[int, float]]) -> float:
    """Expected least deadwood of a ten-card hand after drawing one stock card and discarding."""
    return next_draw(mask, stock, -1)[0]


def hand_value(mask: int, stock: list[tuple[int, float]], style: Style, limit: int) -> float:
    """Lower is better: deadwood now and after the next draw, less a bonus for the chance to
    knock after that draw (hands are short against a quick knocker: tempo pays)."""
    dw = deadwood_of_mask(mask)
    if not style.lookahead:
        return float(dw)
    ex, knock = next_draw(mask, stock, limit)
    return (1 - style.lookahead) * dw + style.lookahead * ex - style.reach * knock


# --- Decisions --------------------------------------------------------------------------------


def _discard_scores(
    known: Knowledge, cards: list[str], style: Style, stock: list[tuple[int, float]]
) -> dict[str, float]:
    scores = {}
    for card in cards:
        rest = known.hand & ~BIT[card]
        score = hand_value(rest, stock, style, known.knock_limit)
        if style.danger:
            score += style.danger * knowledge.danger(known, INDEX[card])
        scores[card] = score
    return scores


def pick_discard(
    known: Knowledge, cards: list[str], style: Style, rng: random.Random
) -> tuple[str, dict[str, float]]:
    """The discard with the least score; ties broken toward the higher card, then at random."""
    stock = _stock_odds(known)
    if style.defend and style.lookahead:
        # Each turn the opponent plays brings their knock closer, and with it the count of our
        # deadwood: weigh today's deadwood more as the hand goes on.
        turns = len(known.opp_threw)
        style = replace(style, lookahead=style.lookahead * max(0.25, 1 - style.defend * turns))
    scores = _discard_scores(known, cards, style, stock)
    if style.noise and rng.random() < style.noise:
        # A careless player throws a card that is not in a meld, not always the right one.
        loose = [c for c in cards if not _in_meld(known.hand, c)] or cards
        return sorted(loose, key=BIT.__getitem__)[rng.randrange(len(loose))], scores
    best = min(scores.values())
    ties = [c for c in cards if scores[c] - best < 1e-9]
    top_rank = max(RANK_POINTS[INDEX[c] % 13] for c in ties)
    ties = sorted((c for c in ties if RANK_POINTS[INDEX[c] % 13] == top_rank), key=BIT.__getitem__)
    return ties[rng.randrange(len(ties))], scores


def _in_meld(hand: int, card: str) -> bool:
    return any(m & BIT[card] for m in melds_of_mask(hand))


def should_take(known: Knowledge, style: Style) -> bool:
    """Take the face-up card rather than draw from the stock?"""
    top = known.top
    if top is None:
        return False
    bit = BIT[top]
    if not style.lookahead:
        # The simple rule: only a card that melds.
        return melds_with(known.hand, INDEX[top])
    stock = _stock_odds(known)
    hand = known.hand | bit
    take = min(
        hand_value(hand & ~(1 << i), stock, style, known.knock_limit)
        + style.danger * knowledge.danger(known, i)
        for i, _ in discard_deadwoods_of_mask(hand)
        if i != INDEX[top]
    )
    # The stock: each draw followed by the plain least-deadwood discard, valued the same way.
    # A draw that melds with nothing and is simply thrown back leaves today's hand: value it once.
    zone = zone_of(known.hand)
    now = deadwood_of_mask(known.hand)
    spare = best_drop(known.hand)[1]
    unchanged: float | None = None
    total = weight = 0.0
    for b, q in stock:
        if not b & zone and now <= spare + POINTS_OF_BIT[b]:
            if unchanged is None:
                unchanged = hand_value(known.hand, stock, style, known.knock_limit)
            value = unchanged
        else:
            index, _ = best_drop(known.hand | b)
            value = hand_value((known.hand | b) & ~(1 << index), stock, style, known.knock_limit)
        total += q * value
        weight += q
    draw = total / weight if weight else take
    return take + style.take_margin < draw


def sample_opponent(known: Knowledge, rng: random.Random) -> int:
    """One guess at the opponent's hand, drawn by the weights of ``known.p_opp``."""
    rand = rng.random
    # Weighted sampling without replacement (Efraimidis-Spirakis keys: u ** (1 / p)).
    keyed = [(rand() ** inverse, bit) for inverse, bit in known.sampling]
    hand = known.opp_known
    for _, bit in heapq.nlargest(known.opp_hidden, keyed):
        hand |= bit
    return hand


def defender_deadwood(opp: int, knocker_melds: list[int]) -> int:
    """The opponent's deadwood after melding and laying off: the better of ignoring layoffs and
    laying off every card that fits (close to the engine's exact count, much cheaper)."""
    plain = deadwood_of_mask(opp)
    laid = 0
    for index, _ in layoffs_onto(knocker_melds, opp):
        laid |= 1 << index
    return min(plain, deadwood_of_mask(opp & ~laid)) if laid else plain


def knock_outlook(
    known: Knowledge, after: int, view: dict[str, Any], style: Style, rng: random.Random
) -> tuple[float, float]:
    """Sampled (undercut chance, mean points) of knocking with the ten cards ``after``."""
    mine = deadwood_of_mask(after)
    melds = melds_of_mask(after)
    bonus = view["rules"]["undercut_bonus"]
    limit = view["rules"]["knock_limit"]
    # An opponent who has discarded this hand had the chance to knock and did not.
    they_passed_a_knock = style.infer_no_knock and bool(known.opp_threw)
    value = _worth(view, style)
    undercuts = 0.0
    points = weight = 0.0
    for _ in range(style.knock_samples):
        opp = sample_opponent(known, rng)
        w = 1.0
        if they_passed_a_knock and deadwood_of_mask(opp) <= limit:
            w = 0.35
        theirs = defender_deadwood(opp, melds)
        if theirs <= mine:
            undercuts += w
            points += w * value(-(mine - theirs + bonus))
        else:
            points += w * value(theirs - mine)
        weight += w
    return undercuts / weight, points / weight


def _worth(view: dict[str, Any], style: Style) -> Callable[[float], float]:
    """How Bea values a hand result of ``x`` points to her: the points themselves, or with
    ``match_aware`` their match equity (so a knock that ends the match beats holding on for
    gin, and an opponent one knock from the target is not given time)."""
    if style.match_aware and "rules" in view and "target" in view["rules"]:
        return equity.worth(view)
    return equity.plain


def _settle(knocker: int, defender: int, bonus: int) -> int:
    """Points to the knocker (negative: to the defender) when ``knocker`` knocks or goes gin."""
    mine = deadwood_of_mask(knocker)
    if mine == 0:
        return 25 + deadwood_of_mask(defender)
    theirs = defender_deadwood(defender, melds_of_mask(knocker))
    return theirs - mine if theirs > mine else -(mine - theirs + bonus)


def play_on_value(
    known: Knowledge, mine: int, thrown: str, view: dict[str, Any], style: Style, rng: random.Random
) -> float:
    """Mean points (to Bea) of holding on for gin or an undercut instead of knocking.

    Each rollout samples the opponent's hand and the stock order, then plays the hand out: the
    opponent plays like a knock-at-the-first-chance player (take a card that melds, throw the
    least deadwood, knock when allowed), Bea draws and throws the same greedy way but knocks only
    with gin, or with whatever she has when the stock is about to run out.
    """
    limit = view["rules"]["knock_limit"]
    bonus = view["rules"]["undercut_bonus"]
    value = _worth(view, style)
    total = 0.0
    for _ in range(style.rollouts):
        opp = sample_opponent(known, rng)
        total += value(hold_out(known, opp, mine, BIT[thrown], limit, bonus, rng))
    return total / style.rollouts if style.rollouts else 0.0


def hold_out(
    known: Knowledge, opp: int, mine: int, top: int, limit: int, bonus: int, rng: random.Random
) -> int:
    """One play-out of holding on (see ``play_on_value``) against the opponent hand ``opp``:
    points to Bea."""
    stock = playout.card_bits(known.unseen & ~opp)
    rng.shuffle(stock)
    me = mine
    while stock:
        # The opponent's turn.
        if melds_with(opp, top.bit_length() - 1):
            held = opp | top
            options = [(dw, i) for i, dw in discard_deadwoods_of_mask(held) if 1 << i != top]
            dw, index = min(options)
        else:
            held = opp | stock.pop()
            index, dw = best_drop(held)
        opp = held & ~(1 << index)
        top = 1 << index
        if dw <= limit:
            return -_settle(opp, me, bonus)
        if len(stock) <= 2:
            return 0
        # Bea's turn.
        held = me | stock.pop()
        index, dw = best_drop(held)
        me = held & ~(1 << index)
        top = 1 << index
        if dw == 0 or (dw <= limit and len(stock) <= 3):
            return _settle(me, opp, bonus)
        if len(stock) <= 2:
            return 0
    return 0


def choose_knock(
    known: Knowledge,
    view: dict[str, Any],
    style: Style,
    rng: random.Random,
    card: str,
    cards: list[str],
) -> bool:
    """Knock (with ``card``) now rather than play on?"""
    if style.careless_knock:
        return rng.random() >= style.careless_knock
    if not style.knock_samples:
        return True
    after = known.hand & ~BIT[card]
    risk, mean = knock_outlook(known, after, view, style, rng)
    if style.rollouts:
        # Knock unless holding on for gin or an undercut is worth more on average.
        plain, _ = pick_discard(known, [c for c in cards if c != card] or [card], style, rng)
        hold = play_on_value(known, known.hand & ~BIT[plain], plain, view, style, rng)
        return mean + style.knock_margin * _margin_share(view, style) >= hold
    # Late in the hand the opponent is closer to knocking or gin; accept more risk as the stock
    # runs down, and at the very end take any knock that is more likely to win than not.
    stock = known.stock_count
    allowed = style.max_undercut + max(0.0, (20 - stock) * 0.02)
    if stock <= 6:
        return mean > 0
    return risk <= allowed and mean > 0


# Within this many points of either player's target, the knock margin fades out.
ENDGAME = 25


def _margin_share(view: dict[str, Any], style: Style) -> float:
    """How much of the knock margin applies. The margin corrects play-outs that undervalue
    holding on, a matter of points; when either player is one hand from the target, what matters
    is the match, and equity alone decides (a knock that wins the match is taken, and an
    opponent who needs a few points is not given another turn)."""
    if not style.match_aware or "scores" not in view:
        return 1.0
    return min(1.0, min(equity.needs(view)) / ENDGAME)


def decide(view: dict[str, Any], style: Style, rng: random.Random) -> dict[str, Any]:
    """Bea's action for one view, at one style of play."""
    legal = view["legal_actions"]
    if not legal:
        raise ValueError("there is nothing to do in this view: legal_actions is empty")
    phase = view["phase"]
    # Between hands, and before a deal (a seed without one of its own: none).
    if phase in ("hand_over", "match_over", "shuffling"):
        return legal[0]
    known = knowledge.read(view)
    if phase == "upcard_offer":
        return {"type": "take_upcard" if should_take(known, style) else "pass"}
    if phase == "draw":
        can_take = {"type": "draw", "from": "discard"} in legal
        if can_take and should_take(known, style):
            return {"type": "draw", "from": "discard"}
        return {"type": "draw", "from": "stock"}
    if {"type": "big_gin"} in legal:
        return {"type": "big_gin"}
    gins = [a["card"] for a in legal if a["type"] == "gin"]
    if gins:
        # Any gin wins the same; throw the costliest card so the log reads naturally.
        card = max(gins, key=lambda c: (RANK_POINTS[INDEX[c] % 13], BIT[c]))
        return {"type": "gin", "card": card}
    cards = [a["card"] for a in legal if a["type"] == "discard"]
    card, scores = pick_discard(known, cards, style, rng)
    knocks = {a["card"] for a in legal if a["type"] == "knock"}
    if knocks:
        # The knock worth judging is the one leaving the least deadwood.
        after = dict((ALL_CARDS[i], dw) for i, dw in discard_deadwoods_of_mask(known.hand))
        knock_card = min(knocks, key=lambda c: (after[c], scores.get(c, 0.0), BIT[c]))
        if choose_knock(known, view, style, rng, knock_card, cards):
            return {"type": "knock", "card": knock_card}
    if style.worlds:
        card = play_it_out(known, view, style, rng, card, scores)
    return {"type": "discard", "card": card}


def _defender_deadwood(opp: int, knocker: int) -> int:
    return defender_deadwood(opp, melds_of_mask(knocker))


def play_it_out(
    known: Knowledge,
    view: dict[str, Any],
    style: Style,
    rng: random.Random,
    card: str,
    scores: dict[str, float],
) -> str:
    """The discard: among those whose value is within ``style.gap`` of the best, the one worth
    the most points when each is played out in the same sampled worlds (the value's favourite
    wins ties)."""
    ranked = sorted(scores, key=lambda c: (scores[c], c != card, BIT[c]))
    close = [c for c in ranked if scores[c] <= scores[card] + style.gap]
    actions = [("discard", c) for c in close[: style.candidates]]
    if len(actions) == 1:
        return card
    means = playout.value_actions(
        known,
        view["rules"],
        actions,
        style.worlds,
        rng,
        sample_opponent,
        best_drop,
        _defender_deadwood,
        _worth(view, style),
    )
    return max(actions, key=lambda a: means[a])[1]
