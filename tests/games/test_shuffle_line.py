"""Who cut the stock, in a sentence of its own for each case (issue 23, defect 6): "you and
Alice", never "you, Alice"; in German the verb agrees (du hast, ihr habt, sie haben)."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from games.regions import _shuffle

NAMES = {0: "Alice", 1: "Bob"}


def line(seeded: tuple[bool, bool], seat: int = 0, *, named_both: bool = False) -> str:
    view: dict[str, Any] = {
        "shuffle": {"commitment": "ab" * 32, "seeded": list(seeded)},
        "phase": "draw",
        "legal_actions": [],
    }
    shuffle = _shuffle(view, NAMES, seat, named_both=named_both)
    assert shuffle is not None
    return str(shuffle["cut_line"])


@pytest.mark.parametrize(
    ("seeded", "seat", "named_both", "english", "german"),
    [
        ((True, True), 0, False, "; you and Bob cut the stock.", "; du und Bob habt den Talon"),
        ((True, True), 1, False, "; you and Alice cut the stock.", "; du und Alice habt den"),
        ((True, False), 0, False, "; you cut the stock.", "; du hast den Talon abgehoben."),
        ((True, False), 1, False, "; Alice cut the stock.", "; Alice hat den Talon abgehoben."),
        ((True, True), 0, True, "; Alice and Bob cut the stock.", "; Alice und Bob haben den"),
        ((False, True), 0, True, "; Bob cut the stock.", "; Bob hat den Talon abgehoben."),
    ],
)
def test_it_names_who_cut_the_stock_in_a_sentence(
    seeded: tuple[bool, bool], seat: int, named_both: bool, english: str, german: str
):
    with translation.override("en"):
        assert english in line(seeded, seat, named_both=named_both)
    with translation.override("de"):
        assert german in line(seeded, seat, named_both=named_both)


def test_nobody_has_cut_yet():
    assert line((False, False)) == ""
