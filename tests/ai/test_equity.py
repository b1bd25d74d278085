"""Match equity: points are weighed by what they do for the match, not counted alone."""

from __future__ import annotations

from typing import Any

import pytest

from games.ai import equity


def view_at(mine: int, theirs: int, target: int = 100) -> dict[str, Any]:
    return {"seat": 1, "scores": [theirs, mine], "rules": {"target": target}}


def test_level_players_level_scores_have_even_chances() -> None:
    eq = equity.table(100)
    for need in (100, 50, 7):
        assert eq[need][need] == pytest.approx(0.5)


def test_needing_fewer_points_is_always_better() -> None:
    eq = equity.table(100)
    for theirs in (5, 40, 100):
        column = [eq[need][theirs] for need in range(1, 101)]
        assert column == sorted(column, reverse=True)
    assert eq[0][30] == 1.0
    assert eq[30][0] == 0.0


def test_far_from_the_target_a_point_is_worth_about_a_point() -> None:
    worth = equity.worth(view_at(0, 0))
    assert worth(0) == 0
    assert worth(10) == pytest.approx(10, abs=2)
    assert worth(-10) == pytest.approx(-10, abs=2)
    assert worth(30) > worth(10) > 0 > worth(-10) > worth(-30)


def test_any_result_that_ends_the_match_is_worth_the_same() -> None:
    # Bea needs 8: a 9-point knock wins the match exactly as a 40-point gin would, so holding on
    # for gin gains nothing.
    worth = equity.worth(view_at(92, 50))
    assert worth(9) == worth(40)
    assert worth(9) > worth(7)


def test_an_opponent_one_knock_from_the_target_makes_every_loss_final() -> None:
    # The opponent needs 4: losing a hand by 5 or by 50 loses the match alike.
    worth = equity.worth(view_at(30, 96))
    assert worth(-5) == worth(-50)
    # And a small loss costs far more than the same points early in a match.
    assert worth(-5) < 3 * equity.worth(view_at(0, 0))(-5)


def test_it_works_for_any_target() -> None:
    for target in (50, 150, 250):
        worth = equity.worth(view_at(0, 0, target))
        assert worth(20) > worth(5) > 0
