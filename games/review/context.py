"""What a reader gets of Bea's review: beside a hand's replay (the page and the API's replay)
and for a whole match (the API's ``/matches/{id}/review``), in the reader's language.

Its status: ``ready``; ``hidden`` (none of it is this reader's now: a watcher of a running
match); ``later`` (the budget stopped the hand from being judged now: try again in
``retry_after`` seconds).
"""

from __future__ import annotations

from typing import Any

from games.access import Asker
from games.records import replays

from . import judgements, marks, words
from .judgements import Decision


def _decision(decision: Decision, hand_number: int | None = None) -> dict[str, Any]:
    name = marks.mark(decision["cost"])
    out = {
        **decision,
        "mark": name,
        "symbol": words.SYMBOLS.get(name or "", ""),
        "accuracy": round(marks.accuracy(decision["cost"]), 1),
        "text": words.text(decision),
    }
    if hand_number is not None:
        out["hand_number"] = hand_number
    return out


def _seats(
    decisions: list[Decision], seats: tuple[int, ...], names: dict[int, str]
) -> list[dict[str, Any]]:
    return [{**judgements.seat_summary(decisions, seat), "name": names[seat]} for seat in seats]


def for_match(asker: Asker, reader: str, first: int | None = None) -> dict[str, Any]:
    """The match's review as far as it goes: every shown seat's accuracy over the judged
    hands and in each, and the worst few decisions (hand ``first`` judged first)."""
    match = asker.match
    seats = judgements.shown_seats(asker)
    finished = replays.finished_hands(match)
    if not seats:
        return {"status": "hidden", "retry_after": None, "hands_finished": len(finished)}
    by_hand, retry = judgements.match_decisions(match, reader, first)
    names = replays.names_of(match)
    shown = {number: [d for d in found if d["seat"] in seats] for number, found in by_hand.items()}
    everything = [{**d, "hand_number": n} for n, found in shown.items() for d in found]
    return {
        "status": "ready" if by_hand or retry is None else "later",
        "retry_after": retry,
        "complete": len(by_hand) == len(finished),
        "hands_finished": len(finished),
        "hands_reviewed": len(by_hand),
        "seats": _seats(everything, seats, names),
        "hands": [
            {
                "hand_number": number,
                "url": replays.url(match, number),
                "seats": _seats(found, seats, names),
            }
            for number, found in shown.items()
        ],
        "worst": [
            {
                **_decision(d, d["hand_number"]),
                "name": names[d["seat"]],
                "url": replays.url(match, d["hand_number"], d["index"]),
            }
            for d in judgements.worst(everything)
        ],
        "decisions": shown,
    }


def for_hand(replay: replays.Replay, asker: Asker, reader: str) -> dict[str, Any]:
    """The review beside one hand's replay, with the match's summary around it."""
    match_review = for_match(asker, reader, first=replay.hand_number)
    if match_review["status"] == "hidden":
        return {"status": "hidden", "retry_after": None}
    found = match_review.pop("decisions").get(replay.hand_number)
    if found is None:
        return {"status": "later", "retry_after": match_review["retry_after"] or 1}
    names = replays.names_of(replay.match)
    seats = judgements.shown_seats(asker)
    in_hand = _seats(found, seats, names)
    in_match = {s["seat"]: s for s in match_review["seats"]}
    return {
        "status": "ready",
        "retry_after": None,
        "seats": in_hand,
        "decisions": [_decision(d) for d in found],
        "match": match_review,
        # The page's table: each seat in this hand and in the match so far.
        "rows": [{**s, "match": in_match[s["seat"]]} for s in in_hand],
    }


def on_page(context: dict[str, Any], review: dict[str, Any]) -> dict[str, Any]:
    """The replay page's context with the review: each listed move of a shown seat carries its
    judgement (``judged``), and the page its summary (``review``)."""
    by_index = {d["index"]: d for d in review.get("decisions", [])}
    moves = [{**m, "judged": by_index.get(m["index"])} for m in context["moves"]]
    return {
        **context,
        "moves": moves,
        "move": moves[context["index"]],
        "review": review,
    }
