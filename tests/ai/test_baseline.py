"""The baseline's one rule for the face-up card: take it only if it melds with the hand."""

from __future__ import annotations

import pytest

from games.ai.baseline import melds_with
from games.engine.cards import INDEX, mask_of


@pytest.mark.parametrize(
    ("hand", "card", "melds"),
    [
        (["5D", "5H"], "5C", True),  # a set of three
        (["5D", "9H"], "5C", False),  # one of its rank is not a set
        (["3C", "4C"], "5C", True),  # the top of a run
        (["4C", "6C"], "5C", True),  # the middle
        (["6C", "7C"], "5C", True),  # the bottom
        (["4C", "7C"], "5C", False),  # a gap
        (["4D", "6D"], "5C", False),  # the run is in another suit
        (["2C", "3C"], "AC", True),
        (["QC", "JC"], "KC", True),
        (["AC", "QC"], "KC", False),  # runs do not turn the corner
        (["AC", "2C", "KD", "KH"], "KC", True),
        ([], "5C", False),
    ],
)
def test_a_card_melds_only_with_two_of_its_rank_or_its_run(
    hand: list[str], card: str, melds: bool
) -> None:
    assert melds_with(mask_of(hand), INDEX[card]) is melds
