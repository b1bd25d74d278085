"""How well can the log tell which of Bea's discards the opponent can meld? ``python -m
bench.bea_posterior``.

    python -m bench.bea_posterior [--opponent baseline] [--matches 12] [--seed 98]
                                  [--particles 100] [--moves 3] [--sweeps 40]
                                  [--softness BETA] [--eps 0.02]

Bea's danger estimate (``knowledge.danger``) reads each card the opponent took, threw and passed
on by itself. This computes the Bayes posterior of the opponent's whole hand from the whole log of
the hand under a model of their policy, and measures how well each tells the cards they can meld
from the rest (the AUC), over every danger the expert weighs in ``--matches`` matches played in
this process. When the model is the opponent's real policy and the chain has mixed, no guess of
the danger from the log does better than the posterior: its AUC is the log's ceiling.

The model (``Policy``): the face-up card is taken exactly when it melds with the hand; the
discard is one leaving the least deadwood (at random among ties), never the card just taken from
the pile, and a hand that could knock does. That is the baseline (``games/ai/baseline.py``) but
for its rule against repeating a (drawn, discarded) pair. ``--softness BETA`` instead makes a
discard ``exp(-BETA * extra deadwood)`` likely and drops the knock rule, for players who weigh
more than deadwood (``patient``). Every rule may be broken with a small chance (``eps``), so a
player the model misjudges thins the posterior rather than emptying it.

The computation (``posterior``): particles are stories of the hand, an initial hand of ten from
the cards Bea has never seen or first saw thrown by the opponent, and each stock draw, replayed
through the log. A draw the next discard needs is that card; any other draw is a card still
unseen. Each decision of the opponent weighs the particle by the policy's likelihood; the
particles are resampled when their weights collapse, and each copy is moved ``--moves`` times by
Metropolis (one open card it holds swapped for one it does not, in every hand of its story,
accepted by the ratio of the whole story's likelihood); at the end, ``--sweeps`` more moves.
It is a bound for research, far too slow for play (0.1-0.4 s a position).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from bench import bea_oracle
from games.ai import arena, knowledge
from games.ai.baseline import melds_with
from games.ai.knowledge import _initial_pile
from games.ai.playout import card_bits
from games.engine.cards import INDEX
from games.engine.melds import discard_deadwoods_of_mask

# A decision of the opponent: ("decline", card) passed on the face-up card, ("take", card) took
# it, ("discard", card, kind, just taken) threw a card (kind: discard, knock or gin).
Record = tuple[Any, ...]


@dataclass(frozen=True)
class Policy:
    """The opponent's policy as a likelihood of each decision given the hand they held."""

    knock_limit: int = 10
    eps: float = 0.02  # the chance of any decision the model does not expect
    softness: float | None = None  # None: least deadwood only; else exp(-softness * extra)

    def log_likelihood(self, record: Record, hand: int) -> float:
        kind = record[0]
        miss = math.log(self.eps)
        if kind == "decline":
            return miss if melds_with(hand, record[1]) else 0.0
        if kind == "take":
            return 0.0 if melds_with(hand, record[1]) else miss
        _, index, how, just_taken = record
        if not hand >> index & 1:
            return -math.inf
        if how != "discard":
            return 0.0
        options = [(dw, i) for i, dw in discard_deadwoods_of_mask(hand) if (1 << i) != just_taken]
        least = min(dw for dw, _ in options)
        thrown = next((dw for dw, i in options if i == index), None)
        if thrown is None:
            return miss
        if self.softness is None:
            if least <= self.knock_limit or thrown != least:
                return miss
            return -math.log(sum(1 for dw, _ in options if dw == least))
        total = sum(math.exp(-self.softness * (dw - least)) for dw, _ in options)
        return math.log(max(self.eps, math.exp(-self.softness * (thrown - least)) / total))


@dataclass
class _Particle:
    hand: int  # the opponent's hand as of the last step replayed
    log_weight: float = 0.0
    story: list[tuple[Record, int]] = field(default_factory=list)  # each decision, its hand


@dataclass
class _Log:
    """What the view's log says about the opponent's cards."""

    pool: int  # cards that may have been theirs: never seen by Bea, or first seen thrown by them
    unseen: int  # cards Bea has never seen
    first_thrown: int  # cards first seen thrown by the opponent
    # The opponent's steps in order: ("draw",) from the stock, or a Record.
    steps: list[Record]


def _read_log(view: dict[str, Any]) -> _Log:
    seat = view["seat"]
    moves = view.get("moves") or []
    hand = sum(1 << INDEX[c] for c in view["hand"])
    # Bea's hand as dealt: today's, less what she drew and took, plus what she threw.
    dealt, stock_draws = hand, 0
    for move in moves:
        if move.get("seat") != seat or not move.get("card"):
            continue
        bit = 1 << INDEX[move["card"]]
        if move.get("type") in ("draw", "take_upcard"):
            dealt &= ~bit
            if move.get("source") == "stock":
                stock_draws |= bit
        elif move.get("type") in ("discard", "knock", "gin"):
            dealt |= bit
    pile = _initial_pile(list(view["discard_pile"]), moves)
    seen = dealt | stock_draws | sum(1 << INDEX[c] for c in pile)
    first_thrown = 0
    steps: list[Record] = []
    just_taken = 0
    for move in moves:
        kind, card, mine = move.get("type"), move.get("card"), move.get("seat") == seat
        bit = 1 << INDEX[card] if card else 0
        if kind in ("draw", "take_upcard") and move.get("source") == "discard":
            top = pile.pop()
            if not mine:
                steps.append(("take", INDEX[top]))
                just_taken = 1 << INDEX[top]
        elif kind == "pass" or (kind == "draw" and move.get("source") == "stock"):
            if not mine:
                if pile:
                    steps.append(("decline", INDEX[pile[-1]]))
                if kind == "draw":
                    steps.append(("draw",))
        elif kind in ("discard", "knock", "gin") and card:
            if not mine:
                if not seen & bit:
                    first_thrown |= bit
                steps.append(("discard", INDEX[card], kind, just_taken))
                just_taken = 0
            pile.append(card)
        seen |= bit
    unseen = ((1 << 52) - 1) & ~seen
    return _Log(unseen | first_thrown, unseen, first_thrown, steps)


def posterior(
    view: dict[str, Any],
    policy: Policy,
    particles: int = 100,
    sweeps: int = 40,
    rng: random.Random | None = None,
    moves: int = 3,
) -> list[tuple[int, float]]:
    """The opponent's hand now, as (mask, weight) pairs whose weights sum to 1."""
    rng = rng or random.Random(0)
    log = _read_log(view)
    pool = card_bits(log.pool)
    parts = [_Particle(sum(rng.sample(pool, 10))) for _ in range(particles)]
    gone = 0  # cards first thrown by them that are in the pile by now
    drew = False
    for step in log.steps:
        if step[0] == "draw":
            drew = True
            continue
        if step[0] == "take":
            for p in parts:
                _note(p, step, p.hand, policy)
                p.hand |= 1 << step[1]
            continue
        if step[0] == "decline":
            for p in parts:
                _note(p, step, p.hand, policy)
            continue
        thrown = 1 << step[1]
        if drew:
            free = log.pool & ~gone & ~thrown
            for p in parts:
                if p.hand & thrown:
                    # Any card still in the stock then: it is unseen, or thrown by them later.
                    choices = card_bits(free & ~p.hand)
                    if not choices:
                        p.log_weight = -math.inf
                        continue
                    p.hand |= rng.choice(choices)
                    p.log_weight += math.log(len(choices))
                else:
                    p.hand |= thrown  # the draw was the card they threw
        else:
            # No draw could bring it: a story that lacks the card held it in place of one of its
            # open cards, from when that card came (a proposal, weighed by what it changes).
            open_cards = (log.unseen | (log.first_thrown & ~gone)) & ~thrown
            for p in parts:
                held = card_bits(p.hand & open_cards)
                if p.hand & thrown or not held or p.log_weight == -math.inf:
                    continue
                instead = rng.choice(held)
                change, p.story = _with(p, instead, thrown, policy)
                p.log_weight += change + math.log(len(held))
                p.hand = (p.hand & ~instead) | thrown
        for p in parts:
            _note(p, step, p.hand, policy)
            p.hand &= ~thrown
        gone |= thrown & log.first_thrown
        drew = False
        resampled = _resampled(parts, rng)
        if resampled is not parts:
            # Resampling copies the few stories that explain the log; moving each copy keeps
            # them from being one story many times over.
            # A card they throw later may be held now, like a card never seen.
            open_cards = log.unseen | (log.first_thrown & ~gone)
            for p in resampled:
                for _ in range(moves):
                    _swap(p, open_cards, policy, rng)
        parts = resampled
    if sweeps and parts:
        parts = _resampled(parts, rng, always=True)
        for p in parts:
            for _ in range(sweeps):
                _swap(p, log.unseen, policy, rng)
    return _normalised(parts)


def _note(p: _Particle, record: Record, hand: int, policy: Policy) -> None:
    p.log_weight += policy.log_likelihood(record, hand)
    p.story.append((record, hand))


def _normalised(parts: list[_Particle]) -> list[tuple[int, float]]:
    top = max(p.log_weight for p in parts)
    if top == -math.inf:
        raise ValueError("no hand the policy allows explains this log")
    weights = [math.exp(p.log_weight - top) for p in parts]
    total = sum(weights)
    return [(p.hand, w / total) for p, w in zip(parts, weights, strict=True)]


def _resampled(parts: list[_Particle], rng: random.Random, always: bool = False) -> list[_Particle]:
    """Systematic resampling, when the effective number of particles falls under half."""
    weighted = _normalised(parts)
    ess = 1 / sum(w * w for _, w in weighted)
    if ess > len(parts) / 2 and not always:
        return parts
    out = []
    step = 1 / len(parts)
    mark, acc, i = rng.random() * step, weighted[0][1], 0
    for _ in parts:
        while acc < mark and i < len(parts) - 1:
            i += 1
            acc += weighted[i][1]
        out.append(_Particle(parts[i].hand, 0.0, list(parts[i].story)))
        mark += step
    return out


def _swap(p: _Particle, open_cards: int, policy: Policy, rng: random.Random) -> None:
    """A Metropolis move: an open card (unseen, or thrown by them only later) the particle holds
    for one it does not hold, in every hand of its story (an open card it holds now was held
    from when it came until now)."""
    held, other = card_bits(p.hand & open_cards), card_bits(open_cards & ~p.hand)
    if not held or not other:
        return
    x, y = rng.choice(held), rng.choice(other)
    change, story = _with(p, x, y, policy)
    if change >= 0 or rng.random() < math.exp(change):
        p.hand = (p.hand & ~x) | y
        p.story = story


def _with(p: _Particle, x: int, y: int, policy: Policy) -> tuple[float, list[tuple[Record, int]]]:
    """The particle's story with card ``y`` wherever it holds ``x``, and what that changes in
    the story's log-likelihood."""
    change = 0.0
    story = []
    for record, hand in p.story:
        if hand & x:
            swapped = (hand & ~x) | y
            change += policy.log_likelihood(record, swapped) - policy.log_likelihood(record, hand)
            story.append((record, swapped))
        else:
            story.append((record, hand))
    return change, story


def danger(hands: list[tuple[int, float]], index: int) -> float:
    """The posterior chance that they hold two cards that meld with the card at ``index``."""
    return sum(w for hand, w in hands if melds_with(hand, index))


@dataclass
class Measured:
    """Every danger the expert weighed: her estimate, the posterior's, and the truth, with how
    many times the opponent had thrown by then."""

    rows: list[tuple[float, float, bool, int]] = field(default_factory=list)
    positions: int = 0
    seconds: float = 0.0
    summary: arena.Summary | None = None  # the matches she played meanwhile
    unexplained: int = 0  # positions whose log no particle could explain (left out)


@contextmanager
def recording(policy: Policy, particles: int, sweeps: int, moves: int = 3) -> Iterator[Measured]:
    """Within the block, each danger the expert of ``bea_oracle.SPEC`` weighs is recorded with
    the posterior's and the truth; she plays as ``bea:expert`` (her own estimate decides)."""
    measured = Measured()
    read, estimate = knowledge.read, knowledge.danger
    # The position read last: its knowledge (held, so that no later one is taken for it), its
    # view and, once a danger is weighed there, the posterior.
    at: dict[str, Any] = {}

    def read_view(view: dict[str, Any]) -> knowledge.Knowledge:
        known = read(view)
        at.clear()
        at.update(known=known, view=view)
        return known

    def danger_of(known: knowledge.Knowledge, index: int) -> float:
        mine = estimate(known, index)
        theirs = bea_oracle._told["hand"]
        if theirs is None or at.get("known") is not known:
            return mine
        if "hands" not in at:
            begun = time.perf_counter()
            rng = random.Random(f"posterior:{measured.positions}")
            try:
                at["hands"] = posterior(at["view"], policy, particles, sweeps, rng, moves)
            except ValueError:
                at["hands"] = []
                measured.unexplained += 1
            measured.seconds += time.perf_counter() - begun
            measured.positions += 1
        hands = at["hands"]
        if not hands:
            return mine
        melds = melds_with(theirs, index)
        measured.rows.append((mine, danger(hands, index), melds, len(known.opp_threw)))
        return mine

    knowledge.read, knowledge.danger = read_view, danger_of
    try:
        with bea_oracle.told("nothing"):
            yield measured
    finally:
        knowledge.read, knowledge.danger = read, estimate


def measure(
    opponent: str,
    matches: int,
    seed: int,
    policy: Policy,
    particles: int,
    sweeps: int,
    moves: int = 3,
) -> Measured:
    def progress(done: int, total: int) -> None:
        print(f"  {done}/{total} matches", file=sys.stderr, flush=True)

    with recording(policy, particles, sweeps, moves) as measured:
        measured.summary = arena.run(
            bea_oracle.SPEC, opponent, matches, seed=seed, processes=1, progress=progress
        )
    return measured


STAGES = ((0, 2), (2, 5), (5, 9), (9, 99))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opponent", default="baseline")
    parser.add_argument("--matches", type=int, default=12)
    parser.add_argument("--seed", type=int, default=98)
    parser.add_argument("--particles", type=int, default=100)
    parser.add_argument("--sweeps", type=int, default=40)
    parser.add_argument("--moves", type=int, default=3, help="Metropolis moves after a resampling")
    parser.add_argument("--softness", type=float, default=None)
    parser.add_argument("--eps", type=float, default=0.02)
    args = parser.parse_args(argv)
    policy = Policy(eps=args.eps, softness=args.softness)
    m = measure(
        args.opponent, args.matches, args.seed, policy, args.particles, args.sweeps, args.moves
    )
    model = "least deadwood" if args.softness is None else f"softness {args.softness}"
    print(
        f"The expert against {args.opponent}, {args.matches} matches, seed {args.seed}: "
        f"{len(m.rows)} dangers weighed at {m.positions} positions; posterior of {args.particles}"
        f" particles, {args.moves} moves, {args.sweeps} sweeps, {model}, eps {args.eps}"
        f" ({1000 * m.seconds / max(1, m.positions):.0f} ms a position;"
        f" {m.unexplained} no particle could explain, left out)"
    )
    print(
        f"{'opponent had thrown':20} {'cards':>7} {'meldable':>9} {'her AUC':>8} {'posterior':>10}"
    )
    for low, high in ((0, 99), *STAGES):
        rows = [r for r in m.rows if low <= r[3] < high]
        if not rows:
            continue
        label = "any" if (low, high) == (0, 99) else f"{low}-{high - 1} times"
        label = f"{low} or more times" if high == 99 and low else label
        share = sum(r[2] for r in rows) / len(rows)
        hers = bea_oracle.auc([(r[0], r[2]) for r in rows])
        ours = bea_oracle.auc([(r[1], r[2]) for r in rows])
        print(f"{label:20} {len(rows):7} {share:9.3f} {hers:8.3f} {ours:10.3f}")


if __name__ == "__main__":
    main()
