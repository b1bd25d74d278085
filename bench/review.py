"""How long Bea's review of a match takes: ``python -m bench.review [--matches N] [--seed S]``.

Each match is played to 100 points (simple preset) by the hard level against the medium one
(``--player easy``: a weaker one, who disagrees with Bea more often, and each disagreement costs
the play-outs), the kind of match a person plays against Bea; then every decision of that seat
(the "player") is judged as ``games.review`` judges a human's, from their own view, in one process
on one core. Bea's memo of hands is cleared before each match's review, as a server's would
be cold. Prints the seconds per match (wall time, and the process's CPU time, which a busy
machine does not inflate as much) and per hand, the decisions and how many were marked. It
never asserts a time: machines differ.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from games.ai import bea, choose, judge
from games.engine import PRESETS, MatchState, apply, new_match, player_view
from games.review import marks


def play(seed: str, player: str) -> list[list[MatchState]]:
    """One match's hands, each as its positions (the deal, then after each action)."""
    state = new_match(PRESETS["simple"], seed=seed)
    rng = random.Random(seed)
    hands: list[list[MatchState]] = [[state]]
    while state.phase != "match_over":
        if state.phase == "hand_over":
            state = apply(state, 0, {"type": "next_hand"})
            hands.append([state])
            continue
        seat = state.to_act
        assert seat is not None
        state = apply(state, seat, choose(player_view(state, seat), (player, "hard")[seat], rng))
        hands[-1].append(state)
    return hands


def review(hands: list[list[MatchState]], seat: int, seed: str) -> list[dict[str, Any]]:
    """Every judged decision of ``seat``, as ``games.review.judgements.judge_hand`` does."""
    out = []
    for number, positions in enumerate(hands, 1):
        for index in range(1, len(positions)):
            move = positions[index].moves[-1]
            if move["seat"] != seat:
                continue
            view = player_view(positions[index - 1], seat)
            judged = judge.judge(view, move, random.Random(f"{seed}:{number}:{index}"))
            if judged is not None:
                out.append(judged)
    return out


def noise(hands: list[list[MatchState]], seat: int, seeds: int) -> list[float]:
    """For each decision of ``seat`` unlike Bea's, the spread (standard deviation) of its cost
    judged with ``seeds`` different random numbers."""
    spreads = []
    for positions in hands:
        for index in range(1, len(positions)):
            move = positions[index].moves[-1]
            if move["seat"] != seat:
                continue
            view = player_view(positions[index - 1], seat)
            first = judge.judge(view, move, random.Random(0))
            if first is None or judge.same(first["bea"], first["played"]):
                continue
            costs = [judge.judge(view, move, random.Random(k))["cost"] for k in range(seeds)]
            spreads.append(statistics.pstdev(costs))
    return sorted(spreads)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=5)
    parser.add_argument("--seed", default="2026")
    parser.add_argument("--player", default="medium", help="the judged seat's level")
    parser.add_argument(
        "--noise",
        type=int,
        default=0,
        help="instead: judge each decision unlike Bea's this "
        "many times with other random numbers, and print the spread of its cost",
    )
    args = parser.parse_args()
    if args.noise:
        spreads: list[float] = []
        for i in range(args.matches):
            spreads += noise(play(f"bench-review:{args.seed}:{i}", args.player), 0, args.noise)
        print(
            f"{len(spreads)} decisions unlike Bea's, each judged {args.noise} times: spread of "
            f"the cost (standard deviation) median {statistics.median(spreads):.2f}, 90th "
            f"percentile {spreads[int(0.9 * len(spreads))]:.2f}, max {spreads[-1]:.2f} points"
        )
        return
    per_match, per_cpu, per_hand, decisions, marked, hands_in_all = [], [], [], 0, 0, 0
    for i in range(args.matches):
        seed = f"bench-review:{args.seed}:{i}"
        hands = play(seed, args.player)
        bea.best_drop.cache_clear()
        started, cpu = time.perf_counter(), time.process_time()
        judged = review(hands, 0, seed)
        seconds = time.perf_counter() - started
        cpu = time.process_time() - cpu
        per_match.append(seconds)
        per_cpu.append(cpu)
        per_hand.append(seconds / len(hands))
        hands_in_all += len(hands)
        decisions += len(judged)
        marked += sum(1 for j in judged if marks.mark(j["cost"]))
        print(
            f"match {i}: {len(hands)} hands, {len(judged)} decisions, {seconds:.2f} s "
            f"({cpu:.2f} s of CPU)"
        )
    print(
        f"{args.matches} matches: median {statistics.median(per_match):.2f} s per match "
        f"({statistics.median(per_cpu):.2f} s of CPU), max {max(per_match):.2f} s "
        f"({max(per_cpu):.2f} s of CPU); {hands_in_all} hands, "
        f"median {statistics.median(per_hand):.2f} s per hand; "
        f"{decisions} decisions judged, {marked} marked; {judge.WORLDS} worlds per decision"
    )


if __name__ == "__main__":
    main()
