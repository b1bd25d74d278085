"""What other apps add to a table without games knowing them (DESIGN.md principle 7).

The lobby puts each player's rating beside their name (``seat_notes``) and a rated match's
rating changes under its result (``result_lines``); moderation a "Report" link beside the
opponent's name (``seat_links``); the API's match JSON says what a lobby match counts for
(``match_fields``). Each app appends its functions here in its
``AppConfig.ready``; games calls them while rendering a table, in the reader's language, and
knows nothing of what they say. A failing one is logged and shows nothing.

A kind of match with rules of its own (the lesson, ``games.lesson.hooks``) registers them in
``kinds`` by its ``Match.Kind``: the door (``services.moves``) asks it which action a move
applies, the readers (``readers.view_for``) what it adds to a seat's view and whether a hint is
offered, the table (``table.context``) what it changes on the page; and Bea's turns play a
``scripted_levels`` level by its script, not by her judgement. These are part of the rules: what
they raise is a refusal (``IllegalAction``), never logged away.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from games.engine import MatchState
from games.models import Match

log = logging.getLogger(__name__)

# match -> {seat: a short note beside that seat's name}
seat_notes: list[Callable[[Match], dict[int, str]]] = []
# (match, the reader's seat or None for a watcher) -> lines under the finished match's result
result_lines: list[Callable[[Match, int | None], list[str]]] = []
# (match, the reader's seat or None for a watcher) -> {seat: [(url, label), ...]}: links beside
# that seat's name, for its reader only (a watcher's table gets None as the seat)
seat_links: list[Callable[[Match, int | None], dict[int, list[tuple[str, str]]]]] = []
# match -> fields of the match's JSON in the API that another app knows (``games.api.matches``
# declares them: the lobby's ``rating``, what the match counts for)
match_fields: list[Callable[[Match], dict[str, Any]]] = []


def notes_for(match: Match) -> dict[int, str]:
    notes: dict[int, str] = {}
    for note in seat_notes:
        try:
            for seat, text in note(match).items():
                notes[seat] = f"{notes[seat]} {text}" if seat in notes else text
        except Exception:
            log.exception("a seat note failed on %s", match.public_id)
    return notes


def links_for(match: Match, seat: int | None) -> dict[int, list[tuple[str, str]]]:
    links: dict[int, list[tuple[str, str]]] = {}
    for more in seat_links:
        try:
            for linked, found in more(match, seat).items():
                links.setdefault(linked, []).extend(found)
        except Exception:
            log.exception("a seat link failed on %s", match.public_id)
    return links


def fields_for(match: Match) -> dict[str, Any]:
    fields: dict[str, Any] = {}
    for more in match_fields:
        try:
            fields.update(more(match))
        except Exception:
            log.exception("match fields failed on %s", match.public_id)
    return fields


def lines_for(match: Match, seat: int | None) -> list[str]:
    lines: list[str] = []
    for more in result_lines:
        try:
            lines.extend(more(match, seat))
        except Exception:
            log.exception("a result line failed on %s", match.public_id)
    return lines


@dataclass(frozen=True)
class KindRules:
    """What a kind of match changes in the move path (see the module's docstring)."""

    # (the state before the move, the mover's seat, the action sent) -> the action the door
    # applies; raises ``IllegalAction`` for a move this kind does not allow
    admit: Callable[[MatchState, int, Any], Any]
    # (the state, a seat, that seat's view) -> None: adds to (or changes) the seat's view
    add_to_view: Callable[[MatchState, int, dict[str, Any]], None]
    # (the match, the table's context) -> None: changes what its table page shows
    table: Callable[[Match, dict[str, Any]], None]
    # whether Bea's hint may be offered at such a match
    hints: bool = True


# Match.Kind -> its own rules
kinds: dict[str, KindRules] = {}
# Bea's level -> the move she makes from her view at that level (a script, not her judgement)
scripted_levels: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {}


def add_to_table(ctx: dict[str, Any], match: Match, reader: int | None) -> None:
    """What other apps add (``games.table.add_ons``): notes and links beside the names, lines under
    the result of a finished match; and what a kind of match with rules of its own shows (a
    lesson's panel)."""
    notes = notes_for(match)
    links = links_for(match, reader) if reader is not None else {}
    for player in ctx["players"]:
        player["note"] = notes.get(player["seat"], "")
        player["links"] = links.get(player["seat"], [])
    ctx["result_lines"] = [] if match.is_active else lines_for(match, reader)
    rules = kinds.get(match.kind)
    if rules is not None:
        rules.table(match, ctx)  # a lesson's panel (games.lesson.hooks)
