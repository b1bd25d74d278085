"""Replays of finished hands: every position of a hand with both hands face up, and Bea's notes.

A hand is replayed from the match's log (its rules, seed or stacked deck and actions, up to the
row's version), as every state is (DESIGN.md principle 3). Only a hand that is over is ever
replayed: for the hand in play, an unknown hand or a match still on its first deal there is
``NoSuchHand``, and no position, card or note of it is computed. The notes
(``games.ai.review``) are computed the first time a finished hand's replay is read, and stored
(``HandReview``); the stock a hand never reached is never shown, only its count.

Who may read a replay is who may read the match's table: its players (by account, or by seat
key at a private table and at a guest's match against Bea), the owner of a pass-and-play
match, and anyone allowed to watch it: ``games.access`` says who that is, the callers ask.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _

from games.ai import review
from games.engine import (
    MatchState,
    apply,
    best_arrangement,
    display,
    fair,
    hand_is_fair,
)
from games.labels import card
from games.models import HandRecord, HandReview, Match
from games.state_cache import first_state
from games.table.moves import describe_move
from games.table.orders import laid_open
from games.table.results import result_context


class NoSuchHand(Exception):  # noqa: N818 - the callers answer 404, as for a missing page
    """No finished hand of that number in this match (yet)."""


@dataclass(frozen=True)
class Replay:
    match: Match
    hand_number: int
    # The deal, then the state after each of the hand's actions; the last one ends the hand.
    positions: list[MatchState]
    # Bea's notes on each position (none on the deal).
    notes: list[list[dict[str, Any]]]

    @property
    def result(self) -> dict[str, Any]:
        last = self.positions[-1].last_hand
        assert last is not None
        return last


def finished_hands(match: Match) -> list[int]:
    """The numbers of the match's hands that are over (each left a record when it ended)."""
    return list(
        HandRecord.objects.filter(match=match)
        .order_by("hand_number")
        .values_list("hand_number", flat=True)
    )


def url(match: Match, hand_number: int, move: int | None = None) -> str:
    path = reverse("games:replay", args=[match.public_id, hand_number])
    return path if move is None else f"{path}?move={move}"


def replay_of(match: Match, hand_number: int) -> Replay:
    """The replay of a finished hand, its notes computed now if they never were."""
    positions = _positions(match, hand_number)
    if not positions or positions[-1].phase not in ("hand_over", "match_over"):
        raise NoSuchHand(hand_number)
    return Replay(match, hand_number, positions, _notes(match, hand_number, positions))


def _positions(match: Match, hand_number: int) -> list[MatchState]:
    if hand_number < 1:
        return []
    state = first_state(match)
    # The deal and every position after it; a hand waiting for its seeds has no position.
    positions = [state] if hand_number == 1 and state.phase != "shuffling" else []
    for action in match.actions.filter(seq__lte=match.version).order_by("seq").iterator():
        if state.hand_number > hand_number:
            break
        state = apply(state, action.seat, action.payload)
        if state.hand_number == hand_number and state.phase != "shuffling":
            positions.append(state)
    return positions


def _notes(match: Match, hand_number: int, positions: list[MatchState]) -> list[list[Any]]:
    stored = HandReview.objects.filter(match=match, hand_number=hand_number).first()
    if stored is not None and stored.version == review.VERSION:
        return list(stored.notes)
    notes = review.review(positions)
    # Two first readers at once: the unique (match, hand_number) keeps one row, and both
    # computed the same notes from the same log.
    HandReview.objects.update_or_create(
        match=match,
        hand_number=hand_number,
        defaults={"notes": notes, "version": review.VERSION},
    )
    return notes


# --- What a reader gets ---------------------------------------------------------------------------


def names_of(match: Match) -> dict[int, str]:
    return {s.number: s.display_name for s in match.seats.all()}


def move_line(replay: Replay, index: int, names: dict[int, str]) -> str:
    """What happened at position ``index``: the deal, or one player's action."""
    state = replay.positions[index]
    if index == 0:
        return _("%(name)s dealt; %(card)s was turned up.") % {
            "name": names[state.dealer],
            "card": display(state.discard[-1]),
        }
    return describe_move(state.moves[-1], names, 0) + "."


def notes_at(replay: Replay, index: int, names: dict[int, str]) -> list[dict[str, Any]]:
    """The notes of one position, each with its words (the opponent is the mover's)."""
    state = replay.positions[index]
    if index == 0:
        return []
    mover = state.moves[-1]["seat"]
    return [
        {**note, "text": review.note_text(note, names[1 - mover])} for note in replay.notes[index]
    ]


def as_json(replay: Replay) -> dict[str, Any]:
    """The whole replay for the API: every position with both hands, the notes, the result."""
    names = names_of(replay.match)
    first = replay.positions[0]
    moves = []
    for index, state in enumerate(replay.positions):
        move = dict(state.moves[-1]) if index else None
        moves.append(
            {
                "index": index,
                "seat": move.pop("seat") if move else None,
                "action": move,
                "text": move_line(replay, index, names),
                "hands": [sorted(h, key=_order) for h in state.hands],
                "deadwood": [best_arrangement(h).deadwood for h in state.hands],
                "discard_pile": list(state.discard),
                "stock_count": len(state.stock),
                "notes": notes_at(replay, index, names),
            }
        )
    last = replay.positions[-1]
    return {
        "match": replay.match.public_id,
        "hand_number": replay.hand_number,
        "players": [{"seat": s, "name": names[s]} for s in (0, 1)],
        "dealer": first.dealer,
        "moves": moves,
        "result": replay.result,
        "scores": list(last.scores),
        "url": url(replay.match, replay.hand_number),
        "shuffle": revealed_shuffle(replay),
    }


def revealed_shuffle(replay: Replay) -> dict[str, Any] | None:
    """The hand's provably fair deal, revealed now that the hand is over (docs/fairness.md):
    the commitment shown before the players' seeds, the server seed it commits to, and the
    seeds: each seat's (seeded scheme, "" for none), or each cut with the position whose
    action carried it (the older scheme). None when the hand was not dealt so."""
    deal = replay.positions[0]
    if not hand_is_fair(deal):
        return None
    server = fair.server_seed(deal.seed, replay.hand_number)
    revealed: dict[str, Any] = {
        "scheme": fair.SCHEMES[deal.fair],
        "hand_number": replay.hand_number,
        "commitment": fair.commitment(server),
        "server_seed": server,
    }
    if deal.fair == fair.SEEDED:
        return {**revealed, "seeds": [seed or "" for seed in deal.seeded]}
    return {**revealed, "cuts": _cuts(replay)}


def _cuts(replay: Replay) -> list[dict[str, Any]]:
    """The older scheme's cuts: each seat's first seed of the hand, and the position whose
    action carried it."""
    cuts = []
    for index in range(1, len(replay.positions)):
        before, after = replay.positions[index - 1].seeded, replay.positions[index].seeded
        cuts += [
            {"seat": seat, "seed": after[seat], "move": index}
            for seat in (0, 1)
            if before[seat] is None and after[seat] is not None
        ]
    return cuts


def _order(code: str) -> tuple[int, int]:
    return ("CDHS".index(code[1]), "A23456789TJQK".index(code[0]))


def page_context(replay: Replay, index: int) -> dict[str, Any]:
    """What the replay page draws at position ``index`` (clamped to the hand)."""
    match = replay.match
    names = names_of(match)
    last = len(replay.positions) - 1
    index = max(0, min(index, last))
    state = replay.positions[index]
    move = state.moves[-1] if index else None
    pile = list(state.discard)
    moves = [
        {
            "index": i,
            "line": move_line(replay, i, names),
            "notes": [n["text"] for n in notes_at(replay, i, names)],
            "url": url(match, replay.hand_number, i),
        }
        for i in range(last + 1)
    ]
    finished = finished_hands(match)
    return {
        "match": match,
        "hand_number": replay.hand_number,
        "index": index,
        "last": last,
        "move": moves[index],
        "moves": moves,
        "hands": [_hand_at(state, seat, names[seat], move) for seat in (0, 1)],
        "pile": {
            "top": card(pile[-1]) if pile else None,
            "count": len(pile),
            "stock_count": len(state.stock),
        },
        "result": result_context(
            {"last_hand": replay.result, "rules": match.rules},
            names,
            0,
            laid_open(replay.result),
            spectator=True,
        )
        if index == last
        else None,
        "urls": _step_urls(replay, index, last),
        "hands_list": [{"number": n, "url": url(match, n)} for n in finished],
        "shuffle": _shuffle_context(replay, names),
    }


def _hand_at(
    state: MatchState, seat: int, name: str, move: dict[str, Any] | None
) -> dict[str, Any]:
    """One seat's hand, face up, in its best arrangement: melds, then the deadwood."""
    drawn = move["card"] if move and move["type"] in ("draw", "take_upcard") else ""
    arranged = best_arrangement(state.hands[seat])
    melded = {c for meld in arranged.melds for c in meld}
    groups = [*arranged.melds]
    if arranged.deadwood_cards:
        groups.append(sorted(arranged.deadwood_cards, key=_order))
    return {
        "seat": seat,
        "name": name,
        "dealer": state.dealer == seat,
        "mover": move is not None and move["seat"] == seat,
        "deadwood": arranged.deadwood,
        "groups": [
            [card(c, melded=c in melded, just_drawn=c == drawn) for c in group] for group in groups
        ],
    }


def _step_urls(replay: Replay, index: int, last: int) -> dict[str, str]:
    """The links that step through the hand, and back to the table."""
    match, number = replay.match, replay.hand_number
    return {
        "first": url(match, number, 0),
        "previous": url(match, number, index - 1) if index > 0 else "",
        "next": url(match, number, index + 1) if index < last else "",
        "last": url(match, number, last),
        "table": reverse(
            "games:local" if match.kind == Match.Kind.LOCAL else "games:table",
            args=[match.public_id],
        ),
    }


def _shuffle_context(replay: Replay, names: dict[int, str]) -> dict[str, Any] | None:
    """The replay page's "Verify this shuffle": the revealed values, and the whole replay for
    the browser to check (static/js/verify.js)."""
    revealed = revealed_shuffle(replay)
    if revealed is None:
        return None
    if "seeds" in revealed:
        seeds = revealed["seeds"]
    else:
        cut = {c["seat"]: c["seed"] for c in revealed["cuts"]}
        seeds = [cut.get(seat, "") for seat in (0, 1)]
    return {
        **revealed,
        "seeded_deal": "seeds" in revealed,
        "seats": [{"name": names[seat], "seed": seeds[seat]} for seat in (0, 1)],
        "data": as_json(replay),
    }
