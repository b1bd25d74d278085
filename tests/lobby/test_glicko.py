"""Glicko-2 against the worked example of Glickman's paper ("Example of the Glicko-2
system", 2012), and what the paper's example cannot show."""

from __future__ import annotations

import pytest

from lobby.ratings.glicko import Glicko, after_match, display, rate

PAPER_OPPONENTS = [(1400, 30, 1.0), (1550, 100, 0.0), (1700, 300, 0.0)]


def _paper(shift: float = 0.0) -> Glicko:
    player = Glicko(1500 + shift, 200, 0.06)
    opponents = [(Glicko(r + shift, rd, 0.06), s) for r, rd, s in PAPER_OPPONENTS]
    return rate(player, opponents)


def test_it_matches_the_papers_example():
    new = _paper()
    # The paper rounds its intermediate steps: r' = 1464.06, RD' = 151.52, sigma' = 0.05999.
    assert new.rating == pytest.approx(1464.06, abs=0.02)
    assert new.rd == pytest.approx(151.52, abs=0.01)
    assert new.volatility == pytest.approx(0.05999, abs=0.00001)


@pytest.mark.parametrize("shift", [-700, 300, 900])
def test_it_rates_alike_wherever_the_players_stand(shift: float):
    # Glicko-2 sees only differences of ratings: the glicko2 package alone gets the
    # volatility wrong away from 1500 (its step 5 reads the rating for the deviation).
    shifted, paper = _paper(shift), _paper()
    assert shifted.rating - shift == pytest.approx(paper.rating, abs=1e-6)
    assert shifted.rd == pytest.approx(paper.rd, abs=1e-6)
    assert shifted.volatility == pytest.approx(paper.volatility, abs=1e-9)


def test_a_win_raises_and_a_loss_lowers_a_new_rating():
    start = Glicko(1500, 350, 0.06)
    won, lost = after_match(start, start, 1.0), after_match(start, start, 0.0)
    assert won.rating > 1500 > lost.rating
    assert won.rating - 1500 == pytest.approx(1500 - lost.rating)
    assert won.rd < 350


@pytest.mark.parametrize(
    ("rating", "rd", "shown"),
    [(1500, 350, "1500?"), (1532.4, 110, "1532?"), (1532.6, 109.9, "1533"), (987, 45, "987")],
)
def test_a_rating_is_provisional_until_its_deviation_is_below_110(rating, rd, shown):
    assert display(rating, rd) == shown
