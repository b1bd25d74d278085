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
``danger~K``  her own danger estimate updated by Bayes with a noisy clue of the truth (a draw
              of N(+K, 1) when they can meld the card, N(-K, 1) when not): between her guess
              (K 0) and ``danger`` (K large), a guess as good as its AUC, which ``--auc``
              measures (how good must guessing get?)

Only the expert's own decisions are told; the opponent (``patient`` reads the same knowledge)
plays as it always does. Match ``i`` is dealt as in ``manage.py arena`` with the same seed.
"""

from __future__ import annotations

import argparse
import math
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


def _hinted(estimate: float, melds: bool, strength: float, noise: random.Random) -> float:
    """``estimate`` after a clue ``z`` drawn from N(+strength, 1) if ``melds``, else from
    N(-strength, 1): the clue's likelihood ratio adds ``2 * strength * z`` to the log-odds."""
    p = min(max(estimate, 1e-4), 1 - 1e-4)
    clue = noise.gauss(strength if melds else -strength, 1.0)
    logit = math.log(p / (1 - p)) + 2 * strength * clue
    return 1 / (1 + math.exp(-min(max(logit, -30.0), 30.0)))


def _parsed(knows: str) -> tuple[str, float | None]:
    """``knows`` as what she is told and the clue's strength (``danger~K``; None: no clue)."""
    kind, tilde, strength = knows.partition("~")
    if kind not in TOLD or (tilde and kind != "danger"):
        raise ValueError(f"one of {', '.join(TOLD)} or danger~K, not {knows}")
    return kind, float(strength) if tilde else None


@contextmanager
def told(knows: str, weighed: list[tuple[float, bool]] | None = None) -> Iterator[None]:
    """Within the block, the expert of ``SPEC`` is told ``knows`` (this process and the arena's
    workers, which fork from it); everything is put back after it. Told ``danger~K``, each
    danger she weighs in this process is added to ``weighed`` with the truth: (value, melds)."""
    kind, hint = _parsed(knows)
    what = {"hand": {"samples", "chances", "danger"}}.get(kind, {kind} - {"nothing"})
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
            melds = melds_with(hand, index)
            if hint is None:
                return 1.0 if melds else 0.0
            # The same clue for the same card against the same hand, in any process.
            noise = random.Random(f"{hand}:{index}:{knows}")
            value = _hinted(danger(known, index), melds, hint, noise)
            if weighed is not None:
                weighed.append((value, melds))
            return value
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


def hint_auc(knows: str, opponent: str, matches: int, seed: int) -> float:
    """How well the dangers the expert weighs when told ``knows`` (``danger~K``) tell the
    cards the opponent can meld from the rest: the AUC over every danger weighed in
    ``matches`` matches, played in this process."""
    weighed: list[tuple[float, bool]] = []
    with told(knows, weighed):
        arena.run(SPEC, opponent, matches, seed=seed, processes=1)
    return auc(weighed)


def auc(pairs: list[tuple[float, bool]]) -> float:
    """The chance that a card they can meld is given a higher value than one they cannot (ties
    count half): the Mann-Whitney U over all pairs, by ranks."""
    ordered = sorted(pairs)
    ranks: list[float] = [0.0] * len(ordered)
    i = 0
    while i < len(ordered):
        j = i
        while j < len(ordered) and ordered[j][0] == ordered[i][0]:
            j += 1
        for k in range(i, j):
            ranks[k] = (i + j + 1) / 2
        i = j
    positives = sum(melds for _, melds in ordered)
    negatives = len(ordered) - positives
    if not positives or not negatives:
        return float("nan")
    rank_sum = sum(r for r, (_, melds) in zip(ranks, ordered, strict=True) if melds)
    return (rank_sum - positives * (positives + 1) / 2) / (positives * negatives)


def known_as(value: str) -> str:
    """``--knows``'s check: what ``told`` understands, or argparse's error."""
    try:
        _parsed(value)
    except ValueError as wrong:
        raise argparse.ArgumentTypeError(
            f"one of {', '.join(TOLD)} or danger~K, not {value}"
        ) from wrong
    return value


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opponent", default="baseline")
    parser.add_argument("--matches", type=int, default=400)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--processes", type=int, default=None)
    parser.add_argument("--knows", nargs="*", type=known_as, default=list(TOLD))
    parser.add_argument(
        "--auc",
        type=int,
        default=0,
        metavar="MATCHES",
        help="for each danger~K, also the AUC of the dangers she weighs over this many matches",
    )
    args = parser.parse_args(argv)
    print(
        f"The expert against {args.opponent}, {args.matches} matches to 100 (simple), "
        f"seed {args.seed}, told what no player sees"
    )
    print(
        f"{'knows':11} {'wins':>5} {'win rate':>9} {'95% CI':>15} {'pts/hand':>9} {'ms/dec':>7}"
        f" {'AUC':>6}"
    )
    for knows in args.knows:
        s = measure(knows, args.opponent, args.matches, args.seed, args.processes)
        low, high = s.ci95
        per_hand = (s.points[0] - s.points[1]) / s.hands if s.hands else 0.0
        graded = "~" in knows and args.auc
        quality = f"{hint_auc(knows, args.opponent, args.auc, args.seed):6.3f}" if graded else ""
        print(
            f"{knows:11} {s.wins[0]:5} {100 * s.win_rate:8.1f}% "
            f"{100 * low:6.1f}-{100 * high:5.1f}% {per_hand:+9.2f} {s.mean_decision_ms[0]:7.2f}"
            f" {quality:>6}",
            flush=True,
        )


if __name__ == "__main__":
    main()
