"""Who cut the stock or sent a seed for the deal, in a sentence of its own for each case
(issue 23, defect 6): "you and Alice", never "you, Alice"; in German the words agree (du hast,
ihr habt, sie haben; von dir, deinem Seed)."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from games.table.context import shuffle as _shuffle

NAMES = {0: "Alice", 1: "Bob"}


def line(
    seeded: tuple[bool, bool], seat: int = 0, *, named_both: bool = False, seeds: bool = False
) -> str:
    shuffle: dict[str, Any] = {"commitment": "ab" * 32, "seeded": list(seeded)}
    if seeds:
        shuffle["awaiting"] = []  # a deal from the players' seeds (docs/fairness.md)
    view: dict[str, Any] = {
        "shuffle": shuffle,
        "phase": "draw",
        "legal_actions": [],
    }
    shuffle = _shuffle(view, NAMES, seat, named_both=named_both)
    assert shuffle is not None
    return str(shuffle["cut_line"])


CUT = [
    ((True, True), 0, False, "; you and Bob cut the stock.", "; du und Bob habt den Talon"),
    ((True, True), 1, False, "; you and Alice cut the stock.", "; du und Alice habt den"),
    ((True, False), 0, False, "; you cut the stock.", "; du hast den Talon abgehoben."),
    ((True, False), 1, False, "; Alice cut the stock.", "; Alice hat den Talon abgehoben."),
    ((True, True), 0, True, "; Alice and Bob cut the stock.", "; Alice und Bob haben den"),
    ((False, True), 0, True, "; Bob cut the stock.", "; Bob hat den Talon abgehoben."),
]
SEEDS = [
    ((True, True), 0, False, "the seeds sent by you and Bob.", "den Seeds von dir und Bob."),
    ((True, True), 1, False, "the seeds sent by you and Alice.", "Seeds von dir und Alice."),
    ((True, False), 0, False, "comes from it and your seed.", "aus ihm und deinem Seed."),
    ((True, False), 1, False, "the seed sent by Alice.", "dem Seed von Alice."),
    ((True, True), 0, True, "sent by Alice and Bob.", "den Seeds von Alice und Bob."),
]


@pytest.mark.parametrize(
    ("seeds", "seeded", "seat", "named_both", "english", "german"),
    [(False, *case) for case in CUT] + [(True, *case) for case in SEEDS],
)
def test_it_names_who_cut_the_stock_or_seeded_the_deal_in_a_sentence(
    seeds: bool, seeded: tuple[bool, bool], seat: int, named_both: bool, english: str, german: str
):
    with translation.override("en"):
        assert english in line(seeded, seat, named_both=named_both, seeds=seeds)
    with translation.override("de"):
        assert german in line(seeded, seat, named_both=named_both, seeds=seeds)


def test_nobody_has_cut_or_seeded_yet():
    assert line((False, False)) == ""
    assert line((False, False), seeds=True) == ""
