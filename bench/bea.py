"""How long Bea takes to decide, per level: ``python -m bench.bea [--positions N] [--seed S]``.

Positions come from self-play (Bea at the level being measured against the baseline, simple
preset), so they are the positions Bea really meets. Each decision is timed alone; the table shows
the median, the 95th percentile and the worst. It never asserts a time: machines differ.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from games.ai import LEVELS, baseline, bea, choose
from games.engine import PRESETS, apply, new_match, player_view


def positions(level: str, count: int, seed: int) -> list[tuple[dict[str, Any], int]]:
    """Views where Bea (at ``level``) must decide, with a seed for each decision."""
    rng = random.Random(seed)
    out: list[tuple[dict[str, Any], int]] = []
    match = 0
    while len(out) < count:
        state = new_match(PRESETS["simple"], seed=f"bench:{seed}:{match}")
        bea_seat = match % 2
        match += 1
        while state.phase != "match_over" and len(out) < count:
            if state.phase == "hand_over":
                state = apply(state, 0, {"type": "next_hand"})
                continue
            seat = state.to_act
            assert seat is not None
            view = player_view(state, seat)
            if seat == bea_seat:
                decision_seed = rng.randrange(1 << 30)
                out.append((view, decision_seed))
                action = choose(view, level, random.Random(decision_seed))
            else:
                action = baseline.choose(view, rng)
            state = apply(state, seat, action)
    return out


def measure(level: str, count: int, seed: int) -> list[float]:
    """Milliseconds per decision over ``count`` positions."""
    times = []
    found = positions(level, count, seed)
    # Generating the positions filled Bea's memo of hands; time her from a cold start.
    bea.best_drop.cache_clear()
    for view, decision_seed in found:
        started = time.perf_counter()
        choose(view, level, random.Random(decision_seed))
        times.append(1000 * (time.perf_counter() - started))
    return times


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=2000, help="decisions per level")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--levels", nargs="*", default=list(LEVELS))
    args = parser.parse_args(argv)
    print(f"Bea decision time, {args.positions} positions per level from self-play vs baseline")
    print(f"{'level':8} {'median ms':>10} {'p95 ms':>8} {'max ms':>8}")
    for level in args.levels:
        times = measure(level, args.positions, args.seed)
        print(
            f"{level:8} {statistics.median(times):10.2f} {percentile(times, 0.95):8.2f} "
            f"{max(times):8.2f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
