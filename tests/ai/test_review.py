"""Bea's notes on a finished hand (games.ai.review), on stacked decks: each note is a fact that
can be worked out by hand from the two hands."""

from __future__ import annotations

import pytest

from games.ai.review import note_text, review
from games.engine import MatchState, apply
from tests.engine.helpers import action, deal

# Alice (seat 0) can knock with 10 once she takes Q♣ and throws K♦: three runs and Q♣.
ALICE_KNOCKS = "AS 2S 3S 4H 5H 6H 7C 8C 9C KD"
# Nothing melds, nothing lays off on Alice's runs: 80 points of deadwood.
BEA_LOOSE = "5C JC 3D 9D QD 8H JH 6S 9S KS"
# Runs A-2-3♦ and 9-10-J♥, the three 6s and 2♣: 2 points of deadwood.
BEA_LOW = "AD 2D 3D 6C 6D 6S 9H TH JH 2C"


def positions(state: MatchState, *moves: str) -> list[MatchState]:
    """The deal, then the state after each move: what a replay steps through."""
    out = [state]
    for text in moves:
        seat, move = action(text)
        out.append(apply(out[-1], seat, move))
    return out


def test_it_notes_a_knock_passed_up_and_what_it_would_have_scored():
    hand = positions(deal(ALICE_KNOCKS, BEA_LOOSE, "QC", "2D"), "0 take", "0 discard KD")
    notes = review(hand)
    assert notes[0] == [] and notes[1] == []
    # Knocking with K♦ left Q♣: 10 against Bea's 80, nothing to lay off.
    assert notes[2] == [
        {"code": "knock_passed", "card": "KD", "deadwood": 10, "outcome": "knock", "points": 70}
    ]
    assert note_text(notes[2][0], "Bea") == (
        "Could have knocked with 10 (throwing K♦) and scored 70."
    )


def test_it_notes_a_knock_that_would_have_been_undercut_and_a_likely_knock():
    hand = positions(
        deal(ALICE_KNOCKS, BEA_LOW, "QC", "KH 7D"),
        "0 take",
        "0 discard KD",
        "1 draw stock",
        "1 discard KH",
        "0 draw stock",
        "0 knock QC",
    )
    notes = review(hand)
    # Alice's knock with 10 would have met Bea's 2: undercut, 10 - 2 + 25.
    knock, likely = notes[2]
    assert knock == {
        "code": "knock_passed",
        "card": "KD",
        "deadwood": 10,
        "outcome": "undercut",
        "points": 33,
    }
    assert note_text(knock, "Bea") == (
        "Could have knocked with 10 (throwing K♦), but Bea would have undercut it for 33."
    )
    # After that discard Bea's ten were down to 2: she could knock on her next turn.
    assert likely == {"code": "likely_knock", "deadwood": 10, "theirs": 2}
    assert note_text(likely, "Bea") == (
        "Holding 10 deadwood against a likely knock: Bea could knock next turn with 2."
    )
    # Bea threw K♥ instead of knocking with 2 against Alice's 10 (nothing to lay off): 8.
    assert notes[3] == []
    assert notes[4] == [
        {"code": "knock_passed", "card": "KH", "deadwood": 2, "outcome": "knock", "points": 8},
        # Alice's 10 could knock next turn, and Bea's 2 would undercut that knock.
        {"code": "likely_knock", "deadwood": 2, "theirs": 10},
    ]
    assert note_text(notes[4][1], "Alice") == (
        "Holding 2 deadwood against a likely knock: Alice could knock next turn with 10, "
        "and that knock would be undercut."
    )
    # Alice knocked with 7♦ (Q♣ thrown) into Bea's 2: undercut, 7 - 2 + 25 to Bea.
    assert hand[-1].last_hand is not None and hand[-1].last_hand["kind"] == "undercut"
    assert notes[6] == [{"code": "undercut", "deadwood": 7, "theirs": 2, "points": 30}]
    assert note_text(notes[6][0], "Bea") == (
        "Knocked with 7, but Bea had 2 after laying off: undercut, 30 points to Bea."
    )


def test_it_notes_gin_left_on_the_pile_and_gin_passed_up():
    alice = "AH 2H 3H 5C 5S 5H JD QD KD 9C"  # 9♣ loose; 4♥ would leave her at gin
    bea = "AC 2C 3C 4D 5D 6D 7S 8S 9S KH"  # K♥ loose; 10♠ would give her gin
    hand = positions(
        deal(alice, bea, "TS", "4H"),
        "0 pass",
        "1 pass",
        "0 draw stock",
        "0 discard 9C",
    )
    notes = review(hand)
    assert notes[1] == []  # 10♠ does nothing for Alice
    assert notes[2] == [{"code": "pile_gin", "card": "TS"}]
    assert note_text(notes[2][0], "Alice") == (
        "Gin was one card away and passed: 10♠ from the pile made gin."
    )
    assert notes[3] == []  # after two passes the first draw is from the stock: no choice
    gin, likely = notes[4]
    assert gin == {"code": "gin_passed", "card": "9C"}
    assert note_text(gin, "Bea") == "Gin was there (throwing 9♣) and was passed up."
    # Bea sits on 10, low enough to knock; Alice's 0 would undercut any knock.
    assert likely == {"code": "likely_knock", "deadwood": 0, "theirs": 10}


def test_it_notes_a_discard_taken_straight_into_a_run_or_a_set():
    alice = "9H AS 3C 6D 7S JC KD 2H 4S 5S"
    bea = "7H 8H 2C 4D 6S 5C 5D QS AD 3S"
    hand = positions(
        deal(alice, bea, "KS", "QH"),
        "0 pass",
        "1 pass",
        "0 draw stock",
        "0 discard 9H",
        "1 draw discard",
        "1 discard QS",
        "0 draw stock",
        "0 discard 5S",
        "1 draw discard",
    )
    notes = review(hand)
    assert notes[4] == [{"code": "fed_meld", "card": "9H", "meld": ["7H", "8H", "9H"], "run": True}]
    assert note_text(notes[4][0], "Bea") == "This discard gave Bea a run: 7♥ 8♥ 9♥."
    assert notes[6] == []  # Alice left Q♠ on the pile
    assert notes[8] == [
        {"code": "fed_meld", "card": "5S", "meld": ["5C", "5D", "5S"], "run": False}
    ]
    assert note_text(notes[8][0], "Bea") == "This discard gave Bea a set: 5♣ 5♦ 5♠."


def test_a_discard_taken_but_left_out_of_every_meld_is_no_gift():
    alice = "9H AS 3C 5D 7S JC KD 2H 4S 8S"
    bea = "7C 2C 4D 6S 8C 8D QS AD 3S TD"
    moves = ("0 pass", "1 pass", "0 draw stock", "0 discard 9H", "1 draw discard")
    hand = positions(deal(alice, bea, "KS", "QH"), *moves)
    assert review(hand)[4] == []


@pytest.mark.parametrize(
    ("note", "text"),
    [
        (
            {"code": "likely_knock", "deadwood": 12, "theirs": 0},
            "Holding 12 deadwood against a likely gin: Bea's cards already all melded.",
        ),
        (
            {"code": "knock_passed", "card": "TD", "deadwood": 4, "outcome": "knock", "points": 9},
            "Could have knocked with 4 (throwing 10♦) and scored 9.",
        ),
    ],
)
def test_each_note_reads_as_a_sentence(note: dict, text: str):  # type: ignore[type-arg]
    assert note_text(note, "Bea") == text
