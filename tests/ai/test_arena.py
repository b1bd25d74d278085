"""The arena: statistics that add up, players from files, illegal players lose."""

from __future__ import annotations

from pathlib import Path

import pytest

from games.ai import arena


def test_it_sums_up_a_tiny_fixed_run() -> None:
    summary = arena.run("bea:easy", "random", 4, seed=3, preset="simple", target=30)
    assert summary.matches == 4
    assert sum(summary.wins) == 4
    low, high = summary.ci95
    assert low <= summary.win_rate <= high
    assert summary.win_rate == summary.wins[0] / 4
    assert summary.hands >= 4
    assert summary.knocks[0] + summary.knocks[1] + sum(summary.gins) + summary.drawn_hands == (
        summary.hands
    )
    assert sum(summary.undercuts) <= sum(summary.knocks)
    assert all(ms > 0 for ms in summary.mean_decision_ms)
    assert summary.illegal == [0, 0]
    report = arena.report(summary)
    assert "win rate" in report and "95% CI" in report


def test_it_repeats_a_run_from_its_seed() -> None:
    one = arena.run("baseline", "random", 3, seed=8, target=20)
    two = arena.run("baseline", "random", 3, seed=8, target=20)
    assert (one.wins, one.hands, one.gins, one.knocks) == (
        two.wins,
        two.hands,
        two.gins,
        two.knocks,
    )


def test_it_alternates_seats() -> None:
    rules = arena.resolve_rules("simple", 10)
    results = [arena.play_match("baseline", "random", rules, 1, i) for i in range(2)]
    assert results[0].decisions[0] and results[1].decisions[0]
    # The same seed and index always replays the same match.
    assert arena.play_match("baseline", "random", rules, 1, 1).scores == results[1].scores


def test_it_gives_a_wilson_interval() -> None:
    low, high = arena.wilson(70, 100)
    assert 0.60 < low < 0.70 < high < 0.79
    assert arena.wilson(0, 0) == (0.0, 1.0)


def test_it_loads_a_player_from_a_file(tmp_path: Path) -> None:
    bot = tmp_path / "first_bot.py"
    bot.write_text("def choose(view):\n    return view['legal_actions'][0]\n")
    summary = arena.run(f"{bot}:choose", "random", 2, seed=1, target=10)
    assert summary.matches == 2
    assert summary.illegal == [0, 0]


def test_it_refuses_an_unknown_player(tmp_path: Path) -> None:
    with pytest.raises(ValueError):
        arena.run("chess-engine", "random", 1)
    with pytest.raises(ValueError):
        arena.run(f"{tmp_path / 'missing.py'}:choose", "random", 1)


def test_it_makes_an_illegal_player_lose_and_reports_it(tmp_path: Path) -> None:
    bot = tmp_path / "cheat.py"
    bot.write_text(
        "def choose(view):\n"
        "    return {'type': 'gin', 'card': view['hand'][0]} if view['phase'] == 'discard' "
        "else view['legal_actions'][0]\n"
        "def lazy(view):\n"
        "    return 'pass'\n"
    )
    summary = arena.run(f"{bot}:choose", "baseline", 2, seed=4)
    assert summary.wins == [0, 2]
    assert summary.illegal == [2, 0]
    assert "illegal action" in summary.first_illegal[0]
    assert "illegal" in arena.report(summary)
    lazy = arena.run("random", f"{bot}:lazy", 2, seed=4)
    assert lazy.wins == [2, 0] and lazy.illegal == [0, 2]
    assert "not an action dict" in lazy.first_illegal[1]


def test_it_uses_processes_without_changing_results() -> None:
    one = arena.run("baseline", "random", 4, seed=2, target=20, processes=1)
    two = arena.run("baseline", "random", 4, seed=2, target=20, processes=2)
    assert (one.wins, one.hands, one.gins) == (two.wins, two.hands, two.gins)
    assert two.processes == 2
