"""Cards, melds and deadwood (RULES.md: Cards; Melds and deadwood)."""

from __future__ import annotations

import pytest

from games.engine import (
    ALL_CARDS,
    best_arrangement,
    best_discard,
    deadwood,
    discard_deadwoods,
    display,
    is_card,
    points,
)
from tests.engine.helpers import hand


def test_it_knows_the_52_card_codes() -> None:
    assert len(ALL_CARDS) == len(set(ALL_CARDS)) == 52
    assert {card[0] for card in ALL_CARDS} == set("A23456789TJQK")
    assert {card[1] for card in ALL_CARDS} == set("CDHS")
    assert is_card("TD") and is_card("AS")
    assert not any(is_card(x) for x in ("10D", "td", "1S", "AX", "", None, 5))


def test_it_shows_glyphs_for_display_only() -> None:
    assert display("TD") == "10\u2666"
    assert display("QH") == "Q\u2665"
    assert display("AS") == "A\u2660"
    assert display("2C") == "2\u2663"


@pytest.mark.parametrize(
    ("card", "value"),
    [("AS", 1), ("2C", 2), ("5H", 5), ("9D", 9), ("TD", 10), ("JC", 10), ("QH", 10), ("KS", 10)],
)
def test_it_counts_card_points(card: str, value: int) -> None:
    assert points(card) == value


def test_it_counts_unmelded_cards_at_face_value() -> None:
    # No meld: 1 + 9 + 10 + 10 + 10 + 10 = 50
    assert deadwood(hand("AS 9D TD JC QH KS")) == 50


def test_it_counts_aces_low() -> None:
    assert deadwood(hand("AS 2S 3S")) == 0
    # Q-K-A is not a run: 10 + 10 + 1 = 21
    assert deadwood(hand("QS KS AS")) == 21
    # nor does a run wrap round the king: 10 + 1 + 2 = 13
    assert deadwood(hand("KH AH 2H")) == 13


def test_it_melds_runs_of_three_or_more_in_one_suit() -> None:
    assert deadwood(hand("JS QS KS")) == 0
    assert deadwood(hand("4D 5D 6D 7D 8D")) == 0
    # mixed suits are no run: 3 + 4 + 5 = 12
    assert deadwood(hand("3C 4D 5H")) == 12
    # two in a row are no run: 4 + 5 = 9
    assert deadwood(hand("4D 5D")) == 9


def test_it_melds_sets_of_three_and_four() -> None:
    assert deadwood(hand("7C 7D 7H")) == 0
    assert deadwood(hand("7C 7D 7H 7S")) == 0
    assert best_arrangement(hand("7C 7D 7H 7S")).melds == [hand("7C 7D 7H 7S")]
    # a pair is no set: 7 + 7 = 14
    assert deadwood(hand("7C 7D")) == 14


def test_it_puts_a_card_in_one_meld_only() -> None:
    # 7H would complete both the set of sevens and the run 7H-8H-9H, but only one of them:
    # set -> 8H + 9H = 17 left; run -> 7C + 7D = 14 left. Never 0.
    arrangement = best_arrangement(hand("7C 7D 7H 8H 9H"))
    assert arrangement.deadwood == 14
    assert arrangement.melds == [hand("7H 8H 9H")]
    assert arrangement.deadwood_cards == hand("7C 7D")


def test_it_chooses_the_run_over_the_set_when_that_leaves_less() -> None:
    # set of fives -> 6H + 7H = 13; run 5H-6H-7H -> 5C + 5D = 10
    arrangement = best_arrangement(hand("5C 5D 5H 6H 7H"))
    assert arrangement.deadwood == 10
    assert arrangement.melds == [hand("5H 6H 7H")]


def test_it_chooses_the_set_over_the_run_when_that_leaves_less() -> None:
    # set of nines -> 7H + 8H = 15; run 7H-8H-9H -> 9C + 9D = 18
    arrangement = best_arrangement(hand("9C 9D 9H 7H 8H"))
    assert arrangement.deadwood == 15
    assert arrangement.melds == [hand("9C 9D 9H")]
    assert arrangement.deadwood_cards == hand("7H 8H")


def test_it_lets_a_set_of_four_give_a_card_to_a_run() -> None:
    # 7C 7D 7H stay a set while 7S opens the run 7S-8S-9S: nothing left over
    arrangement = best_arrangement(hand("7C 7D 7H 7S 8S 9S"))
    assert arrangement.deadwood == 0
    assert sorted(arrangement.melds) == sorted([hand("7C 7D 7H"), hand("7S 8S 9S")])


def test_it_counts_the_deadwood_of_ten_cards() -> None:
    # AS-2S-3S-4S and the sevens meld; KC + QD + 5H = 10 + 10 + 5 = 25
    arrangement = best_arrangement(hand("AS 2S 3S 4S 7C 7D 7H KC QD 5H"))
    assert arrangement.deadwood == 25
    assert sorted(arrangement.deadwood_cards) == sorted(hand("KC QD 5H"))
    assert sorted(map(sorted, arrangement.melds)) == sorted(
        map(sorted, [hand("AS 2S 3S 4S"), hand("7C 7D 7H")])
    )


def test_it_counts_the_deadwood_of_eleven_cards() -> None:
    # AS-2S-3S, the sevens and 9H-TH-JH meld; KC + 4D = 10 + 4 = 14
    assert deadwood(hand("AS 2S 3S 7C 7D 7H 9H TH JH KC 4D")) == 14


def test_it_finds_the_best_discard() -> None:
    eleven = hand("AS 2S 3S 7C 7D 7H 9H TH JH KC 4D")
    # Throwing the king leaves only 4D: 4
    assert best_discard(eleven) == ("KC", 4)
    after = discard_deadwoods(eleven)
    assert set(after) == set(eleven)
    assert after["KC"] == 4  # 4D
    assert after["4D"] == 10  # KC
    assert after["AS"] == 2 + 3 + 10 + 4  # 2S 3S no longer a run
    assert after["7C"] == 7 + 7 + 10 + 4  # 7D 7H no longer a set
    assert after["9H"] == 10 + 10 + 10 + 4  # TH JH no longer a run
    assert min(after.values()) == 4
