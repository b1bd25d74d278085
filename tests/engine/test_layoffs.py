"""Laying off and the knocker's melds (RULES.md: End of hand)."""

from __future__ import annotations

from typing import Any

from tests.engine.helpers import end_hand, hand, melds_of_layoffs

# Runs 2D-3D-4D and 5H-6H-7H, the set KC KD KS; AC = 1 deadwood.
KNOCKER = "5H 6H 7H KC KD KS 2D 3D 4D AC"


def knock(defender_ten: str, knocker_ten: str = KNOCKER) -> dict[str, Any]:
    state = end_hand("knock", knocker_ten, defender_ten)
    assert state.last_hand is not None
    return state.last_hand


def test_it_lays_off_the_fourth_card_of_a_set() -> None:
    # No meld of the defender's own; only KH fits (onto KC KD KS).
    # 10 + 6 + 8 + 2 + 9 + 10 + 10 + 3 + 5 + 10 = 73 before, 73 - 10 = 63 after.
    last = knock("KH 6C 8S 2C 9C JD QD 3S 5S TS")
    assert melds_of_layoffs(last) == {"KH": hand("KC KD KS")}
    assert last["deadwood"] == [1, 63]
    # The set is now four, so it takes no more: one pack has no fifth king.
    assert last["points"] == 63 - 1


def test_it_lays_off_at_both_ends_of_a_run() -> None:
    # 4H goes under 5H-6H-7H and 8H over it.
    # 4 + 8 + 6 + 8 + 2 + 9 + 10 + 10 + 3 + 10 = 70 before, 70 - 4 - 8 = 58 after.
    last = knock("4H 8H 6C 8S 2C 9C JD QD 3S TS")
    assert melds_of_layoffs(last) == {"4H": hand("5H 6H 7H"), "8H": hand("5H 6H 7H")}
    assert last["deadwood"] == [1, 58]
    assert last["points"] == 58 - 1


def test_it_chains_layoffs_along_a_run() -> None:
    # 4H then 3H below 5H-6H-7H; 8H then 9H above it (each laid card opens the next spot).
    # 3 + 4 + 8 + 9 + 6 + 8 + 2 + 10 + 10 + 10 = 70 before, 70 - 24 = 46 after.
    last = knock("3H 4H 8H 9H 6C 8S 2C JD QD TS")
    hearts = hand("5H 6H 7H")
    assert melds_of_layoffs(last) == {"3H": hearts, "4H": hearts, "8H": hearts, "9H": hearts}
    assert last["deadwood"] == [1, 46]
    assert last["deadwood_cards"][1] == hand("2C 6C JD QD 8S TS")
    assert last["points"] == 46 - 1


def test_it_lays_off_onto_every_meld_at_once() -> None:
    # 3H 4H 8H 9H onto the hearts, KH onto the kings, AD and 5D onto 2D-3D-4D.
    # Before: 3 + 4 + 8 + 9 + 10 + 5 + 1 + 6 + 8 + 2 = 56; laid off 40; left 6C 8S 2C = 16.
    last = knock("3H 4H 8H 9H KH 5D AD 6C 8S 2C")
    assert set(melds_of_layoffs(last)) == set(hand("3H 4H 8H 9H KH 5D AD"))
    assert melds_of_layoffs(last)["AD"] == hand("2D 3D 4D")
    assert last["deadwood"] == [1, 16]
    assert last["points"] == 16 - 1


def test_it_never_lets_the_knocker_lay_off() -> None:
    last = knock("3H 4H 8H 9H KH 5D AD 6C 8S 2C")
    assert all(layoff["card"] not in last["hands"][0] for layoff in last["layoffs"])
    assert last["deadwood_cards"][0] == ["AC"]


def test_it_breaks_the_defenders_own_set_when_laying_off_leaves_less() -> None:
    # Knocker: 5H-6H-7H, 5D-6D-7D, the kings; 4S = 4 deadwood.
    knocker = "5H 6H 7H 5D 6D 7D KC KD KS 4S"
    # Keeping 8C 8D 8H as a set blocks 9H and 9D:
    #   9 + 9 + 2 + 3 + 10 + 10 + 10 = 53 left.
    # Breaking it lays off 8H 9H onto the hearts and 8D 9D onto the diamonds:
    #   8C + 2C + 3S + QC + JS + TC = 8 + 2 + 3 + 10 + 10 + 10 = 43 left.
    last = knock("8C 8D 8H 9H 9D 2C 3S QC JS TC", knocker)
    assert last["melds"][1] == []
    assert set(melds_of_layoffs(last)) == set(hand("8H 9H 8D 9D"))
    assert last["deadwood"] == [4, 43]
    assert last["deadwood_cards"][1] == hand("2C 8C TC QC 3S JS")
    assert last["points"] == 43 - 4


def test_it_keeps_the_defenders_own_set_when_that_leaves_less() -> None:
    # 7S could go onto 4S-5S-6S, but then 7C + 7D = 14 would be left; the set leaves 0 of them.
    # Left: 2H 9C JD QH 3C 5H TH = 2 + 9 + 10 + 10 + 3 + 5 + 10 = 49.
    knocker = "4S 5S 6S KC KD KS 2D 3D 4D AC"
    last = knock("7C 7D 7S 2H 9C JD QH 3C 5H TH", knocker)
    assert last["melds"][1] == [hand("7C 7D 7S")]
    assert last["layoffs"] == []
    assert last["deadwood"] == [1, 49]
    assert last["points"] == 49 - 1


def test_it_picks_the_knockers_melds_that_leave_the_defender_the_most_deadwood() -> None:
    # The knocker's 9C 9D 9H 9S TS JS QS melds two ways with the same 6 deadwood (AC 2C 3H):
    #   A: 9C 9D 9H 9S + TS-JS-QS   -> the defender's 8S and 7S have nowhere to go;
    #   B: 9C 9D 9H + 9S-TS-JS-QS   -> 8S then 7S lay off under 9S.
    # Defender: 8 + 7 + 2 + 4 + 6 + 3 + 5 + 10 + 10 + 4 = 59 under A, 59 - 15 = 44 under B.
    # A leaves the defender more, so A is used: 59 - 6 = 53 to the knocker.
    knocker = "9C 9D 9H 9S TS JS QS AC 2C 3H"
    last = knock("8S 7S 2D 4D 6D 3C 5C KH QC 4H", knocker)
    assert sorted(map(sorted, last["melds"][0])) == sorted(
        map(sorted, [hand("9C 9D 9H 9S"), hand("TS JS QS")])
    )
    assert last["layoffs"] == []
    assert last["deadwood"] == [6, 59]
    assert last["points"] == 53
