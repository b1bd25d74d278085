"""The shapes of a finished hand's replay in the JSON API (``GET
/matches/{id}/hands/{n}/replay``, ``games.api.matches``)."""

from __future__ import annotations

from typing import Any, Literal

from ninja import Field, Schema

from games.api.view_schema import CARD, CARDS, HAND_RESULT, obj, replacing
from games.review.schemas import HandReviewOut

# A logged action as a replay shows it: the mover's seat is beside it (``ReplayMove.seat``).
LOGGED_ACTION = obj(
    {
        "type": {"type": "string"},
        "source": {"type": "string", "enum": ["stock", "discard"], "description": "A draw's pile."},
        "card": CARD,
    },
    optional=("source", "card"),
)

# The numbers and cards of a note, by its code (docs/api.md, Replays).
NOTE_FIELDS: dict[str, Any] = {
    "card": CARD,
    "deadwood": {"type": "integer"},
    "theirs": {"type": "integer", "description": "The opponent's deadwood."},
    "points": {"type": "integer"},
    "outcome": {"type": "string", "enum": ["knock", "undercut"]},
    "meld": CARDS,
    "run": {"type": "boolean"},
}


def _note_fields(schema: dict[str, Any]) -> None:
    schema["properties"].update(NOTE_FIELDS)


class ReplayPlayer(Schema):
    seat: int
    name: str


class ReplayNote(Schema):
    code: Literal[
        "knock_passed", "gin_passed", "pile_gin", "fed_meld", "likely_knock", "undercut"
    ] = Field(description="What the note is about; its other fields are its numbers and cards.")
    text: str = Field(description="The note in words, beside its move (the mover is its subject).")

    model_config = {"extra": "allow", "json_schema_extra": _note_fields}


class ReplayMove(Schema):
    index: int = Field(description="0 is the deal; n the position after the hand's n-th action.")
    seat: int | None = Field(description="Who moved; null for the deal.")
    action: dict[str, Any] | None = Field(
        description="The action as the log holds it (`type`, `card`, `source`); null for the deal.",
        json_schema_extra=replacing({"anyOf": [LOGGED_ACTION, {"type": "null"}]}),
    )
    text: str
    hands: list[list[str]] = Field(description="Both seats' cards after this move, face up.")
    deadwood: list[int] = Field(description="Each seat's deadwood at its best arrangement.")
    discard_pile: list[str] = Field(description="Bottom first; the top is last.")
    stock_count: int
    notes: list[ReplayNote] = Field(description="Bea's notes on this move, from the mover's side.")


class ShuffleCut(Schema):
    seat: int
    seed: str = Field(description="The seed the seat sent with its first move of the hand.")
    move: int = Field(description="The replay position whose action carried it (`moves[i].index`).")


class RevealedShuffle(Schema):
    scheme: Literal["sha256-seeded-deal-2", "sha256-fisher-yates-1"]
    hand_number: int
    commitment: str = Field(description="SHA-256 of `server_seed`, shown before the seeds.")
    server_seed: str = Field(description="Revealed now that the hand is over.")
    seeds: list[str] | None = Field(None, description='Each seat\'s seed; "" for none.')
    cuts: list[ShuffleCut] | None = Field(
        None, description="Older matches (`sha256-fisher-yates-1`): the players' cuts, in order."
    )


class ReplayOut(Schema):
    match: str
    hand_number: int
    players: list[ReplayPlayer]
    dealer: int
    moves: list[ReplayMove]
    result: dict[str, Any] = Field(
        description="The hand's end, as `last_hand` in the view.",
        json_schema_extra=replacing(HAND_RESULT),
    )
    scores: list[int] = Field(description="The match's scores once this hand was scored.")
    url: str = Field(description="The replay's page.")
    review: HandReviewOut = Field(
        description="Bea's review of the hand: what each decision cost (docs/review.md)."
    )
    shuffle: RevealedShuffle | None = Field(
        description="The provably fair shuffle revealed (docs/fairness.md); null for a hand "
        "that was not dealt by it."
    )
