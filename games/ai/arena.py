"""The arena: two players, many matches, honest statistics.

Pure Python (no Django), so tests and ``manage.py arena`` share it. A player is named by a spec:

``bea:LEVEL``        Bea at one of ``games.ai.LEVELS``
``baseline``         the EAAI-2021 SimpleGinRummyPlayer (``games.ai.baseline``)
``patient``          Bea's hard draws, safe discards, and after three turns knocks only at
                     4 or less (``games.ai.patient``)
``random``           a uniformly random legal action
``path/to/file.py:function``   any ``choose(view) -> action`` callable in a file

Match ``i`` of a run with seed ``S`` is dealt from a seed derived from ``(S, i)`` and each player's
random numbers come from ``(S, i, A|B)``, so any match can be replayed alone. Player A sits in seat
0 in even matches and seat 1 in odd ones. Players only ever see ``player_view``. A player whose
action is not a dict, is refused by the engine (``IllegalAction``) or who raises loses that match,
and the first such reason is reported.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import math
import multiprocessing
import os
import random
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from games.engine import PRESETS, IllegalAction, Ruleset, apply, new_match, player_view

from . import LEVELS, baseline, patient
from . import player as bea_player

Choose = Callable[[dict[str, Any]], dict[str, Any]]

# A runaway match (two players that never score) is stopped and given to the leader.
MAX_HANDS = 400


def make_player(spec: str, seed: str) -> Choose:
    """Build a fresh player from its spec; ``seed`` feeds its random numbers."""
    if spec.startswith("bea:"):
        level = spec.split(":", 1)[1]
        if level not in LEVELS:
            raise ValueError(f"unknown Bea level {level!r}: choose from {', '.join(LEVELS)}")
        return bea_player(level, seed)
    rng = random.Random(f"{spec}:{seed}")
    if spec == "random":
        return lambda view: rng.choice(view["legal_actions"])
    if spec == "baseline":
        return lambda view: baseline.choose(view, rng)
    if spec == "patient":
        return lambda view: patient.choose(view, rng)
    if ":" in spec:
        path, _, name = spec.rpartition(":")
        return load_callable(path, name)
    raise ValueError(
        f"unknown player {spec!r}: "
        "use bea:LEVEL, baseline, patient, random or path/to/file.py:function"
    )


def load_callable(path: str, name: str) -> Choose:
    """The callable ``name`` from the Python file at ``path``."""
    file = Path(path)
    if not file.is_file():
        raise ValueError(f"no such file: {path}")
    module_name = f"arena_player_{abs(hash(str(file.resolve())))}"
    module = sys.modules.get(module_name)
    if module is None:
        spec = importlib.util.spec_from_file_location(module_name, file)
        if spec is None or spec.loader is None:
            raise ValueError(f"cannot load {path} as Python")
        module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = module
        spec.loader.exec_module(module)
    function = getattr(module, name, None)
    if not callable(function):
        raise ValueError(f"{path} has no callable named {name!r}")
    return function  # type: ignore[no-any-return]


@dataclass
class MatchResult:
    """One match, told from player A's side (index 0 = A, 1 = B in every pair)."""

    index: int
    winner: int  # 0: A won, 1: B won
    scores: tuple[int, int]
    hands: int = 0
    drawn_hands: int = 0
    knocks: list[int] = field(default_factory=lambda: [0, 0])
    gins: list[int] = field(default_factory=lambda: [0, 0])
    undercuts: list[int] = field(default_factory=lambda: [0, 0])  # undercuts scored by each
    decisions: list[int] = field(default_factory=lambda: [0, 0])
    seconds: list[float] = field(default_factory=lambda: [0.0, 0.0])
    illegal: int | None = None  # the player who lost by an illegal action, if any
    reason: str = ""


def match_seed(seed: int | str, index: int) -> int:
    return random.Random(f"arena:{seed}:{index}").getrandbits(62)


def play_match(a: str, b: str, rules: Ruleset, seed: int | str, index: int) -> MatchResult:
    """Play match ``index`` of a run; A sits in seat ``index % 2``."""
    a_seat = index % 2
    specs = (a, b)
    players = [make_player(specs[p], f"{seed}:{index}:{'AB'[p]}") for p in (0, 1)]
    seat_of = (a_seat, 1 - a_seat)
    who = {seat_of[0]: 0, seat_of[1]: 1}  # seat -> player index
    state = new_match(rules, seed=match_seed(seed, index))
    result = MatchResult(index=index, winner=0, scores=(0, 0))
    while state.phase != "match_over":
        if state.phase == "hand_over":
            _tally(result, state.last_hand, who)
            if result.hands >= MAX_HANDS:
                break
            state = apply(state, 0, {"type": "next_hand"})
            continue
        seat = state.to_act
        assert seat is not None
        p = who[seat]
        view = player_view(state, seat)
        started = time.perf_counter()
        try:
            action = players[p](view)
        except Exception as error:  # a crashing bot loses, it does not stop the arena
            return _forfeit(result, p, f"raised {type(error).__name__}: {error}")
        finally:
            result.seconds[p] += time.perf_counter() - started
            result.decisions[p] += 1
        if not isinstance(action, dict):
            return _forfeit(result, p, f"returned {type(action).__name__}, not an action dict")
        try:
            state = apply(state, seat, action)
        except IllegalAction as error:
            return _forfeit(result, p, f"illegal action {action!r}: {error.reason}")
    if state.phase == "match_over":
        _tally(result, state.last_hand, who)
    result.scores = (state.scores[seat_of[0]], state.scores[seat_of[1]])
    result.winner = 0 if result.scores[0] >= result.scores[1] else 1
    if state.settlement is not None:
        result.winner = who[state.settlement["winner"]]
    return result


def _forfeit(result: MatchResult, loser: int, reason: str) -> MatchResult:
    result.winner = 1 - loser
    result.illegal = loser
    result.reason = reason
    return result


def _tally(result: MatchResult, last: dict[str, Any] | None, who: dict[int, int]) -> None:
    if last is None:
        return
    result.hands += 1
    kind = last["kind"]
    if kind == "draw":
        result.drawn_hands += 1
        return
    knocker = who[last["knocker"]]
    if kind in ("gin", "big_gin"):
        result.gins[knocker] += 1
    else:
        result.knocks[knocker] += 1
        if kind == "undercut":
            result.undercuts[1 - knocker] += 1


def wilson(wins: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% by default)."""
    if n == 0:
        return (0.0, 1.0)
    rate = wins / n
    denom = 1 + z * z / n
    centre = (rate + z * z / (2 * n)) / denom
    half = z * math.sqrt(rate * (1 - rate) / n + z * z / (4 * n * n)) / denom
    # At 0 or n wins the bound is exactly 0 or 1; say so rather than trust the rounding.
    low = 0.0 if wins <= 0 else max(0.0, centre - half)
    high = 1.0 if wins >= n else min(1.0, centre + half)
    return (low, high)


@dataclass
class Summary:
    """What a run reports (A's point of view)."""

    a: str
    b: str
    rules: str
    target: int
    seed: int | str
    matches: int = 0
    wins: list[int] = field(default_factory=lambda: [0, 0])
    win_rate: float = 0.0
    ci95: tuple[float, float] = (0.0, 1.0)
    hands: int = 0
    drawn_hands: int = 0
    points: list[int] = field(default_factory=lambda: [0, 0])  # summed match scores
    knocks: list[int] = field(default_factory=lambda: [0, 0])
    gins: list[int] = field(default_factory=lambda: [0, 0])
    undercuts: list[int] = field(default_factory=lambda: [0, 0])
    mean_decision_ms: list[float] = field(default_factory=lambda: [0.0, 0.0])
    decisions: list[int] = field(default_factory=lambda: [0, 0])
    illegal: list[int] = field(default_factory=lambda: [0, 0])
    first_illegal: list[str] = field(default_factory=lambda: ["", ""])
    wall_seconds: float = 0.0
    processes: int = 1

    def as_dict(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        data["ci95"] = list(self.ci95)
        return data


def summarise(results: Iterable[MatchResult], summary: Summary) -> Summary:
    seconds = [0.0, 0.0]
    for r in sorted(results, key=lambda r: r.index):
        summary.matches += 1
        summary.wins[r.winner] += 1
        summary.hands += r.hands
        summary.drawn_hands += r.drawn_hands
        for p in (0, 1):
            summary.points[p] += r.scores[p]
            summary.knocks[p] += r.knocks[p]
            summary.gins[p] += r.gins[p]
            summary.undercuts[p] += r.undercuts[p]
            summary.decisions[p] += r.decisions[p]
            seconds[p] += r.seconds[p]
        if r.illegal is not None:
            summary.illegal[r.illegal] += 1
            if not summary.first_illegal[r.illegal]:
                summary.first_illegal[r.illegal] = f"match {r.index}: {r.reason}"
    summary.win_rate = summary.wins[0] / summary.matches if summary.matches else 0.0
    summary.ci95 = wilson(summary.wins[0], summary.matches)
    summary.mean_decision_ms = [
        1000 * seconds[p] / summary.decisions[p] if summary.decisions[p] else 0.0 for p in (0, 1)
    ]
    return summary


def _play_chunk(job: tuple[str, str, Ruleset, int | str, list[int]]) -> list[MatchResult]:
    a, b, rules, seed, indices = job
    return [play_match(a, b, rules, seed, i) for i in indices]


def resolve_rules(preset: str, target: int | None = None) -> Ruleset:
    if preset not in PRESETS:
        raise ValueError(f"unknown rules preset {preset!r}: choose from {', '.join(PRESETS)}")
    rules = PRESETS[preset]
    return dataclasses.replace(rules, target=target) if target else rules


def run(
    a: str,
    b: str,
    matches: int,
    seed: int | str = 0,
    preset: str = "simple",
    target: int | None = None,
    processes: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Summary:
    """Play ``matches`` matches of A against B and sum them up.

    Uses every core (one process each, matches in chunks) from 20 matches up unless
    ``processes`` says otherwise; results do not depend on the number of processes.
    """
    rules = resolve_rules(preset, target)
    # Fail on a bad spec before starting any process.
    make_player(a, "check")
    make_player(b, "check")
    started = time.perf_counter()
    if processes is None:
        processes = (os.cpu_count() or 1) if matches >= 20 else 1
    processes = max(1, min(processes, matches or 1))
    results: list[MatchResult] = []
    if processes == 1:
        for i in range(matches):
            results.append(play_match(a, b, rules, seed, i))
            if progress:
                progress(len(results), matches)
    else:
        size = max(1, min(25, matches // (processes * 8)))
        jobs = [
            (a, b, rules, seed, list(range(i, min(i + size, matches))))
            for i in range(0, matches, size)
        ]
        with multiprocessing.get_context("fork").Pool(processes) as pool:
            for chunk in pool.imap_unordered(_play_chunk, jobs):
                results.extend(chunk)
                if progress:
                    progress(len(results), matches)
    summary = Summary(
        a=a, b=b, rules=rules.name, target=rules.target, seed=seed, processes=processes
    )
    summarise(results, summary)
    summary.wall_seconds = time.perf_counter() - started
    return summary


def report(summary: Summary) -> str:
    """The human-readable result of a run."""
    s = summary
    low, high = s.ci95
    lines = [
        f"{s.a} (A) vs {s.b} (B): {s.matches} matches to {s.target}, rules {s.rules}, "
        f"seed {s.seed}",
        f"wins          A {s.wins[0]}   B {s.wins[1]}",
        f"A win rate    {100 * s.win_rate:.1f}%  (95% CI {100 * low:.1f}% - {100 * high:.1f}%)",
        f"hands         {s.hands} ({s.drawn_hands} drawn)",
        f"points        A {s.points[0]}   B {s.points[1]}",
        f"knocks        A {s.knocks[0]}   B {s.knocks[1]}",
        f"gins          A {s.gins[0]}   B {s.gins[1]}",
        f"undercuts     A {s.undercuts[0]}   B {s.undercuts[1]}  (scored by)",
        f"decision ms   A {s.mean_decision_ms[0]:.2f}   B {s.mean_decision_ms[1]:.2f}  (mean)",
        f"wall time     {s.wall_seconds:.1f} s on {s.processes} process(es)",
    ]
    for p in (0, 1):
        if s.illegal[p]:
            who = "AB"[p]
            lines.append(
                f"illegal       {who} lost {s.illegal[p]} match(es); first: {s.first_illegal[p]}"
            )
    return "\n".join(lines)
