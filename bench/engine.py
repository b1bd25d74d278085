"""Engine benchmark: ``python -m bench.engine [--quick]``.

Measures, in one run and on one machine: the median time of the 10-card deadwood, of the
11-card best discard, of the 10-card best arrangement (its melds and deadwood cards), and the
hands per second of self-play between two cheap players (best discard, knock at the first
chance). Speed is reported against baselines measured in the same run: a plain exhaustive
search over every meld collection (the obvious implementation), and rlcard's gin rummy meld
search when rlcard is installed. Nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from games.engine import (
    PRESETS,
    apply,
    best_arrangement,
    best_discard,
    deadwood,
    new_match,
    player_view,
)
from games.engine.cards import ALL_CARDS, mask_of, mask_points
from games.engine.melds import (
    arrangements_of_mask,
    best_discard_of_mask,
    deadwood_of_mask,
)
from games.engine.state import MatchState


def say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def per_call_us(fn: Callable[[Any], object], inputs: Sequence[Any], rounds: int) -> float:
    """Median over ``rounds`` timed passes of the mean time per call, in microseconds.

    A pass calls ``fn`` once on each input, so the figure is over many different hands rather
    than one hand cached in the processor."""
    timings = []
    for _ in range(rounds):
        start = time.perf_counter()
        for item in inputs:
            fn(item)
        timings.append((time.perf_counter() - start) / len(inputs) * 1e6)
    return statistics.median(timings)


# --- Baselines -----------------------------------------------------------------------------


def exhaustive_deadwood(mask: int) -> int:
    """Least deadwood by trying every collection of disjoint melds."""
    best = mask_points(mask)
    for melds in arrangements_of_mask(mask):
        rest = mask
        for meld in melds:
            rest &= ~meld
        best = min(best, mask_points(rest))
    return best


def exhaustive_best_discard(mask: int) -> int:
    return min(exhaustive_deadwood(mask ^ (1 << i)) for i in range(52) if mask >> i & 1)


RlFunctions = tuple[
    Callable[[list[Any]], int], Callable[[list[Any]], int], Callable[[list[Any]], object]
]


def rlcard_functions() -> RlFunctions | None:
    """rlcard 1.2.0's deadwood, best discard and best meld clusters (its best arrangement) on
    its own card objects, if rlcard is installed (it is not a dependency of the site)."""
    try:
        from rlcard.games.gin_rummy.utils import melding, utils  # type: ignore[import-not-found]
    except ImportError:
        return None

    def rl_best_arrangement(hand: list[Any]) -> object:
        return melding.get_best_meld_clusters(hand=hand)

    def rl_deadwood(hand: list[Any]) -> int:
        clusters = melding.get_best_meld_clusters(hand=hand)
        return int(
            utils.get_deadwood_count(hand=hand, meld_cluster=clusters[0] if clusters else [])
        )

    def rl_best_discard(hand: list[Any]) -> int:
        return min(rl_deadwood(hand[:i] + hand[i + 1 :]) for i in range(len(hand)))

    return rl_deadwood, rl_best_discard, rl_best_arrangement


def rlcard_cards(codes: list[str]) -> list[Any]:
    from rlcard.games.gin_rummy.utils import utils

    return [utils.card_from_text(code) for code in codes]


# --- Self-play ---------------------------------------------------------------------------


def cheap_move(state: MatchState, seat: int) -> dict[str, Any]:
    """Best discard, knock at the first chance: reads only the mover's own hand."""
    if state.phase == "hand_over":
        return {"type": "next_hand"}
    if state.phase == "upcard_offer":
        return {"type": "pass"}
    if state.phase == "draw":
        return {"type": "draw", "from": "stock"}
    index, left = best_discard_of_mask(mask_of(state.hands[seat]))
    card = ALL_CARDS[index]
    if left == 0:
        return {"type": "gin", "card": card}
    if left <= state.rules.knock_limit:
        return {"type": "knock", "card": card}
    return {"type": "discard", "card": card}


def cheap_choose(view: dict[str, Any]) -> dict[str, Any]:
    """The same cheap player, seeing only its ``player_view``."""
    actions = view["legal_actions"]
    if view["phase"] != "discard":
        for wanted in ({"type": "next_hand"}, {"type": "pass"}, {"type": "draw", "from": "stock"}):
            if wanted in actions:
                return wanted
        return actions[0]
    after = view["deadwood_after_discard"]
    card = min((c for c in view["hand"] if c != view["cannot_discard"]), key=after.__getitem__)
    for kind in ("gin", "knock", "discard"):
        if {"type": kind, "card": card} in actions:
            return {"type": kind, "card": card}
    return actions[0]


def self_play(matches: int, through_view: bool) -> tuple[int, float]:
    hands = 0
    start = time.perf_counter()
    for seed in range(matches):
        state = new_match(PRESETS["standard"], seed=seed)
        while state.phase != "match_over":
            seat = state.to_act if state.to_act is not None else 0
            if through_view:
                action = cheap_choose(player_view(state, seat))
            else:
                action = cheap_move(state, seat)
            state = apply(state, seat, action)
        hands += state.hand_number
    return hands, time.perf_counter() - start


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer hands, for a smoke run")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    count, rounds, matches = (500, 3, 20) if args.quick else (5000, 9, 300)

    rng = random.Random(args.seed)
    tens = [rng.sample(ALL_CARDS, 10) for _ in range(count)]
    elevens = [rng.sample(ALL_CARDS, 11) for _ in range(count)]
    ten_masks = [mask_of(h) for h in tens]
    eleven_masks = [mask_of(h) for h in elevens]
    baseline_hands = max(count // 10, 50)

    rows: list[tuple[str, float, float | None, str]] = []

    say(f"10-card deadwood over {count} random hands, {rounds} passes ...")
    ours_codes = per_call_us(deadwood, tens, rounds)
    ours_mask = per_call_us(deadwood_of_mask, ten_masks, rounds)
    say("  exhaustive baseline ...")
    base = per_call_us(exhaustive_deadwood, ten_masks[:baseline_hands], max(rounds // 3, 1))
    rows.append(("10-card deadwood (codes in)", ours_codes, base, "exhaustive search"))
    rows.append(("10-card deadwood (mask in)", ours_mask, base, "exhaustive search"))

    say(f"11-card best discard over {count} random hands, {rounds} passes ...")
    ours_codes = per_call_us(best_discard, elevens, rounds)
    ours_mask = per_call_us(best_discard_of_mask, eleven_masks, rounds)
    say("  exhaustive baseline ...")
    base = per_call_us(exhaustive_best_discard, eleven_masks[: baseline_hands // 5], 1)
    rows.append(("11-card best discard (codes in)", ours_codes, base, "exhaustive search"))
    rows.append(("11-card best discard (mask in)", ours_mask, base, "exhaustive search"))

    say(f"10-card best arrangement over {count} random hands, {rounds} passes ...")
    ours_arrangement = per_call_us(best_arrangement, tens, rounds)
    rows.append(("10-card best arrangement (codes in)", ours_arrangement, None, ""))

    rl = rlcard_functions()
    if rl is None:
        say("rlcard is not installed: skipping it (pip install rlcard==1.2.0 to compare)")
    else:
        say("rlcard 1.2.0 on the same hands ...")
        rl_deadwood, rl_best_discard, rl_best_arrangement = rl
        rl_tens = [rlcard_cards(h) for h in tens[:baseline_hands]]
        rl_elevens = [rlcard_cards(h) for h in elevens[: baseline_hands // 2]]
        # The same answers first: a speed-up over a wrong answer would mean nothing.
        assert all(rl_deadwood(r) == deadwood(h) for r, h in zip(rl_tens, tens, strict=False))
        assert all(
            rl_best_discard(r) == best_discard(h)[1]
            for r, h in zip(rl_elevens, elevens, strict=False)
        )
        base = per_call_us(rl_deadwood, rl_tens, max(rounds // 3, 1))
        rows.append(("10-card deadwood (codes in)", rows[0][1], base, "rlcard 1.2.0"))
        base = per_call_us(rl_best_discard, rl_elevens, 1)
        rows.append(("11-card best discard (codes in)", rows[2][1], base, "rlcard 1.2.0"))
        # On the very hands rlcard takes: its time varies with the hand more than ours does.
        ours = per_call_us(best_arrangement, tens[:baseline_hands], rounds)
        base = per_call_us(rl_best_arrangement, rl_tens, max(rounds // 3, 1))
        rows.append(("10-card best arrangement (codes in)", ours, base, "rlcard 1.2.0"))

    print()
    print(f"{'measure':36} {'ours (us)':>10} {'baseline (us)':>14} {'speed-up':>9}  baseline")
    for name, ours, baseline, label in rows:
        ratio = f"{baseline / ours:8.1f}x" if baseline else "        -"
        print(f"{name:36} {ours:10.2f} {baseline or 0:14.1f} {ratio}  {label}")

    say(f"self-play: {matches} matches to 100, engine loop ...")
    hands, seconds = self_play(matches, through_view=False)
    say(f"self-play: {matches} matches to 100, through player_view ...")
    view_hands, view_seconds = self_play(matches, through_view=True)
    print()
    print(
        f"self-play, cheap players on the engine:   {hands / seconds:8.0f} hands/s "
        f"({hands} hands in {seconds:.2f} s)"
    )
    print(
        f"self-play, cheap players via player_view: {view_hands / view_seconds:8.0f} hands/s "
        f"({view_hands} hands in {view_seconds:.2f} s)"
    )
    print("targets on a 2-core machine: best discard <= 15 us, deadwood <= 3 us, >= 2,000 hands/s")


if __name__ == "__main__":
    main()
