"""The moves of a hand in words: the move log, what the opponent just did, the latest move."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.engine import display


def move_phrase(move: dict[str, Any]) -> str:
    label = display(move["card"]) if move.get("card") else ""
    kind = move["type"]
    if kind == "pass":
        return _("passed the upcard")
    if kind == "take_upcard":
        return _("took the upcard %(card)s") % {"card": label}
    if kind == "draw" and move.get("source") == "discard":
        return _("took %(card)s from the discard pile") % {"card": label}
    if kind == "draw":
        return (
            _("drew %(card)s from the stock") % {"card": label}
            if label
            else _("drew from the stock")
        )
    if kind == "discard":
        return _("discarded %(card)s") % {"card": label}
    if kind == "knock":
        return _("knocked, discarding %(card)s") % {"card": label}
    if kind == "gin":
        return _("went gin, discarding %(card)s") % {"card": label}
    if kind == "big_gin":
        return _("declared Big Gin")
    return kind


def _join(phrases: list[str]) -> str:
    if len(phrases) == 1:
        return phrases[0]
    return _("%(first)s and %(last)s") % {"first": ", ".join(phrases[:-1]), "last": phrases[-1]}


def opponent_moves(view: dict[str, Any], opponent: str) -> str:
    """What the opponent did in their last turn, e.g. "Bea drew from the stock and discarded
    7♥." Empty when they have not moved since this seat's last turn."""
    seat = view["seat"]
    moves = list(view["moves"])
    # Skip this seat's own draw of the turn in progress; once the hand has ended, a last move
    # of this seat's means the opponent did nothing since.
    if view["phase"] == "discard":
        while moves and moves[-1]["seat"] == seat:
            moves.pop()
    trailing: list[dict[str, Any]] = []
    for move in reversed(moves):
        if move["seat"] == seat:
            break
        trailing.append(move)
    if not trailing:
        return ""
    phrases = [move_phrase(m) for m in reversed(trailing)]
    return _("%(name)s %(moves)s.") % {"name": opponent, "moves": _join(phrases)}


def describe_move(move: dict[str, Any], names: dict[int, str], seat: int) -> str:
    """One line of the hand's move log."""
    return _("%(name)s %(move)s") % {"name": names[move["seat"]], "move": move_phrase(move)}


def last_move_line(view: dict[str, Any], names: dict[int, str]) -> str:
    """For watchers: the latest move, whoever made it."""
    if not view["moves"]:
        return ""
    move = view["moves"][-1]
    return _("%(name)s %(moves)s.") % {"name": names[move["seat"]], "moves": move_phrase(move)}
