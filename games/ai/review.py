"""Bea's notes on a finished hand, move by move, from the mover's side with both hands face up.

Only ever run on a hand that is over (``games.records.replays`` sees to it): a note may name the
opponent's cards. Every note is a fact about its position, found with the engine's own rules
rather than estimated: a knock or a gin that was there (and what that knock would have scored
against the cards the opponent really held, by applying it), a card on the pile that would have
made gin, a discard the opponent took straight into a meld, deadwood held while the opponent
could already knock, a knock that was undercut.

A note is data, a ``code`` and its numbers (cards as codes), so it is stored once and worded
when shown, in the reader's language (``note_text``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _

from games.engine import MatchState, apply, deadwood, display, legal_actions, points
from games.engine.cards import INDEX, mask_of
from games.engine.melds import is_run, melds_of_mask

#: Bumped when the notes change, so that stored reviews of an older kind are redone.
VERSION = 1

Note = dict[str, Any]


def review(positions: Sequence[MatchState]) -> list[list[Note]]:
    """The notes of each position of one finished hand: ``positions[0]`` is the deal and
    ``positions[i]`` the state after the hand's ``i``-th action. The deal has none."""
    notes: list[list[Note]] = [[] for _ in positions]
    for i in range(1, len(positions)):
        before, after = positions[i - 1], positions[i]
        move = after.moves[-1]
        seat, kind = move["seat"], move["type"]
        if kind == "pass" or (kind == "draw" and move.get("source") == "stock"):
            notes[i] += _gin_on_the_pile(before, seat)
        if kind in ("discard", "knock"):
            notes[i] += _ending_passed(before, seat, kind)
        if kind == "discard":
            notes[i] += _fed(positions, i, seat, move["card"])
            if after.phase == "draw":
                notes[i] += _likely_knock(after, seat)
        if kind == "knock" and after.last_hand and after.last_hand["kind"] == "undercut":
            last = after.last_hand
            notes[i].append(
                {
                    "code": "undercut",
                    "deadwood": last["deadwood"][seat],
                    "theirs": last["deadwood"][1 - seat],
                    "points": last["points"],
                }
            )
    return notes


def _gin_on_the_pile(before: MatchState, seat: int) -> list[Note]:
    """The mover passed on (or drew past) the top of the pile, which would have made gin."""
    if before.phase == "upcard_offer":
        take = {"type": "take_upcard"}
    elif before.phase == "draw" and not before.stock_only:
        take = {"type": "draw", "from": "discard"}
    else:
        return []
    top = before.discard[-1]
    taken = apply(before, seat, take)
    if any(a["type"] == "gin" for a in legal_actions(taken, seat)):
        return [{"code": "pile_gin", "card": top}]
    return []


def _ending_passed(before: MatchState, seat: int, kind: str) -> list[Note]:
    """A plain discard (or a knock) when gin was there; a plain discard when a knock was."""
    legal = legal_actions(before, seat)
    gins = [a["card"] for a in legal if a["type"] == "gin"]
    if gins:
        return [{"code": "gin_passed", "card": _highest(gins)}]
    knocks = [a["card"] for a in legal if a["type"] == "knock"]
    if kind != "discard" or not knocks:
        return []
    # What each knock would really have scored: the engine ends the hand on both real hands.
    outcomes = []
    for card in knocks:
        ended = apply(before, seat, {"type": "knock", "card": card})
        result = ended.last_hand
        assert result is not None
        won = result["winner"] == seat
        outcomes.append((result["deadwood"][seat], won, result["points"], card))
    # The lowest deadwood, then the best result for the mover, then the highest card thrown.
    best = min(outcomes, key=lambda o: (o[0], not o[1], -o[2] if o[1] else o[2], -INDEX[o[3]]))
    left, won, points, card = best
    return [
        {
            "code": "knock_passed",
            "card": card,
            "deadwood": left,
            "outcome": "knock" if won else "undercut",
            "points": points,
        }
    ]


def _highest(cards: list[str]) -> str:
    return max(cards, key=lambda c: (points(c), INDEX[c]))


def _fed(positions: Sequence[MatchState], i: int, seat: int, card: str) -> list[Note]:
    """The opponent took this discard at once, and it sits in a meld of their best arrangement."""
    if i + 1 >= len(positions):
        return []
    taker = positions[i + 1]
    move = taker.moves[-1]
    if move["seat"] == seat or move.get("source") != "discard" or move.get("card") != card:
        return []
    hand = mask_of(taker.hands[1 - seat])
    bit = 1 << INDEX[card]
    for meld in melds_of_mask(hand):
        if meld & bit:
            cards = [c for c in taker.hands[1 - seat] if 1 << INDEX[c] & meld]
            return [
                {
                    "code": "fed_meld",
                    "card": card,
                    "meld": sorted(cards, key=INDEX.__getitem__),
                    "run": is_run(meld),
                }
            ]
    return []


def _likely_knock(after: MatchState, seat: int) -> list[Note]:
    """After a plain discard, the opponent's ten cards are already low enough to knock: drawing
    from the stock and throwing that card back would do it on their very next turn."""
    theirs = deadwood(after.hands[1 - seat])
    if theirs > after.rules.knock_limit:
        return []
    return [{"code": "likely_knock", "deadwood": deadwood(after.hands[seat]), "theirs": theirs}]


# --- Words -------------------------------------------------------------------------------------


def note_text(note: Note, opponent: str) -> str:
    """One note in words, beside the move it is about (whose subject is the mover); ``opponent``
    is the name of the other player."""
    code = note["code"]
    values = {**note, "opponent": opponent}
    if "card" in note:
        values["card"] = display(note["card"])
    if code == "knock_passed":
        if note["outcome"] == "knock":
            return (
                _("Could have knocked with %(deadwood)s (throwing %(card)s) and scored %(points)s.")
                % values
            )
        return (
            _(
                "Could have knocked with %(deadwood)s (throwing %(card)s), but %(opponent)s would "
                "have undercut it for %(points)s."
            )
            % values
        )
    if code == "gin_passed":
        return _("Gin was there (throwing %(card)s) and was passed up.") % values
    if code == "pile_gin":
        return _("Gin was one card away and passed: %(card)s from the pile made gin.") % values
    if code == "fed_meld":
        values["meld"] = " ".join(display(c) for c in note["meld"])
        if note["run"]:
            return _("This discard gave %(opponent)s a run: %(meld)s.") % values
        return _("This discard gave %(opponent)s a set: %(meld)s.") % values
    if code == "likely_knock":
        return _likely_knock_text(note, values)
    if code == "undercut":
        return (
            _(
                "Knocked with %(deadwood)s, but %(opponent)s had %(theirs)s after laying off: "
                "undercut, %(points)s points to %(opponent)s."
            )
            % values
        )
    return ""


def _likely_knock_text(note: Note, values: dict[str, Any]) -> str:
    """Deadwood held while the opponent was close to knocking (or to gin)."""
    if note["theirs"] == 0:
        return (
            _(
                "Holding %(deadwood)s deadwood against a likely gin: %(opponent)s's cards "
                "already all melded."
            )
            % values
        )
    if note["deadwood"] <= note["theirs"]:
        return (
            _(
                "Holding %(deadwood)s deadwood against a likely knock: %(opponent)s could "
                "knock next turn with %(theirs)s, and that knock would be undercut."
            )
            % values
        )
    return (
        _(
            "Holding %(deadwood)s deadwood against a likely knock: %(opponent)s could knock "
            "next turn with %(theirs)s."
        )
        % values
    )
