"""What knowing the opponent's hand would be worth to Bea: ``python -m bench.bea_oracle``.

    python -m bench.bea_oracle [--opponent baseline] [--matches 400] [--seed 2026]
                               [--knows nothing hand samples chances danger]

Plays the expert against one opponent on the same deals once for each thing she is told that
no player can see, and prints one row each. This is a bound for research, never a level: it
says how far better guessing could take her, not what she can do.

``nothing``   the expert as she is (the control: it plays exactly as ``bea:expert``)
``samples``   every sampled opponent hand (the knock, the hold-outs, the discard worlds) is theirs
``chances``   each card's chance of being in their hand (``p_opp``) is 1 or 0
``danger``    a discard's danger is 1 if they hold two cards that meld with it, else 0
``hand``      all three

Only the expert's own decisions are told; the opponent (``patient`` reads the same knowledge)
plays as it always does. Match ``i`` is dealt as in ``manage.py arena`` with the same seed.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from games.ai import arena, bea, knowledge
from games.ai.baseline import melds_with
from games.engine.cards import mask_of

TOLD = ("nothing", "samples", "chances", "danger", "hand")
SPEC = "bea:oracle"

# The hand of each seat's opponent as of the view last made for that seat, and what the
# expert deciding now is told (None: nothing, and every patched function is the original).
_opponent_of: dict[int, int] = {}
_told: dict[str, Any] = {"hand": None}


@contextmanager
def told(knows: str) -> Iterator[None]:
    """Within the block, the expert of ``SPEC`` is told ``knows`` (this process and the arena's
    workers, which fork from it); everything is put back after it."""
    what = {"hand": {"samples", "chances", "danger"}}.get(knows, {knows} - {"nothing"})
    view_of, make_player = arena.player_view, arena.make_player
    sample, read, danger = bea.sample_opponent, knowledge.read, knowledge.danger

    def player_view(state: Any, seat: int) -> dict[str, Any]:
        _opponent_of[seat] = mask_of(state.hands[1 - seat])
        return view_of(state, seat)

    def sample_opponent(known: knowledge.Knowledge, rng: random.Random) -> int:
        if _told["hand"] is not None and "samples" in what:
            return int(_told["hand"])
        return sample(known, rng)

    def read_view(view: dict[str, Any]) -> knowledge.Knowledge:
        known = read(view)
        hand = _told["hand"]
        if hand is not None and "chances" in what:
            known.p_opp = [1.0 if hand >> i & 1 else 0.0 for i in range(52)]
        return known

    def danger_of(known: knowledge.Knowledge, index: int) -> float:
        hand = _told["hand"]
        if hand is not None and "danger" in what:
            return 1.0 if melds_with(hand, index) else 0.0
        return danger(known, index)

    def player(spec: str, seed: str) -> Callable[[dict[str, Any]], dict[str, Any]]:
        return oracle_player(seed) if spec == SPEC else make_player(spec, seed)

    patches = [
        (arena, "player_view", player_view),
        (arena, "make_player", player),
        (bea, "sample_opponent", sample_opponent),
        (knowledge, "read", read_view),
        (knowledge, "danger", danger_of),
    ]
    saved = [(module, name, getattr(module, name)) for module, name, _ in patches]
    for module, name, value in patches:
        setattr(module, name, value)
    try:
        yield
    finally:
        for module, name, value in saved:
            setattr(module, name, value)
        _opponent_of.clear()


def oracle_player(seed: str) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """The expert, told what ``_told`` says while she decides (``bea:expert``'s random numbers)."""
    style = bea.STYLES["expert"]
    rng = random.Random(f"bea-player:expert:{seed}")

    def play(view: dict[str, Any]) -> dict[str, Any]:
        _told["hand"] = _opponent_of.get(view["seat"])
        try:
            return bea.decide(view, style, rng)
        finally:
            _told["hand"] = None

    return play


def measure(
    knows: str, opponent: str, matches: int, seed: int, processes: int | None = None
) -> arena.Summary:
    """One arena run of the expert told ``knows`` against ``opponent``."""

    def progress(done: int, total: int) -> None:
        if done % 50 == 0 or done == total:
            print(f"  {knows}: {done}/{total} matches", file=sys.stderr, flush=True)

    with told(knows):
        return arena.run(SPEC, opponent, matches, seed=seed, processes=processes, progress=progress)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opponent", default="baseline")
    parser.add_argument("--matches", type=int, default=400)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--processes", type=int, default=None)
    parser.add_argument("--knows", nargs="*", choices=TOLD, default=list(TOLD))
    args = parser.parse_args(argv)
    print(
        f"The expert against {args.opponent}, {args.matches} matches to 100 (simple), "
        f"seed {args.seed}, told what no player sees"
    )
    print(f"{'knows':9} {'wins':>5} {'win rate':>9} {'95% CI':>15} {'pts/hand':>9} {'ms/dec':>7}")
    for knows in args.knows:
        s = measure(knows, args.opponent, args.matches, args.seed, args.processes)
        low, high = s.ci95
        per_hand = (s.points[0] - s.points[1]) / s.hands if s.hands else 0.0
        print(
            f"{knows:9} {s.wins[0]:5} {100 * s.win_rate:8.1f}% "
            f"{100 * low:6.1f}-{100 * high:5.1f}% {per_hand:+9.2f} {s.mean_decision_ms[0]:7.2f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
