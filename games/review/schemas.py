"""The shapes of Bea's review in the JSON API (docs/api.md, "Bea's review"): beside a hand's
replay (``ReplayOut.review``) and for a whole match (``games.review.api``)."""

from __future__ import annotations

from typing import Any, Literal

from ninja import Field, Schema

from games.api.view_schema import CARD, nullable, obj, replacing

# An action as the review shows it: its type, a discard's card, a draw's pile.
ACTION = obj(
    {
        "type": {"type": "string"},
        "card": CARD,
        "from": {"type": "string", "enum": ["stock", "discard"], "description": "A draw's pile."},
    },
    optional=("card", "from"),
)

Mark = Literal["inaccuracy", "mistake", "blunder"]
Status = Literal["ready", "hidden", "later"]


class Judged(Schema):
    index: int = Field(description="The replay position this decision led to (`moves[i].index`).")
    seat: int
    kind: Literal["take", "draw", "discard"] = Field(
        description="Take or pass the upcard; draw from the pile or the stock; the discard "
        "(with the knock, gin, or holding on)."
    )
    played: dict[str, Any] = Field(
        description="The action played.", json_schema_extra=replacing(ACTION)
    )
    bea: dict[str, Any] = Field(
        description="What Bea would have done.", json_schema_extra=replacing(ACTION)
    )
    cost: float = Field(
        description="Percentage points of the chance to win the match the action played lost "
        "against Bea's, by her play-outs (0: none, or hers and it are alike)."
    )
    mark: Mark | None = Field(description="By the cost: null below 3, then 3, 6, 12.")
    symbol: Literal["", "?!", "?", "??"]
    accuracy: float = Field(description="0 to 100, from the cost (docs/review.md).")
    upcard: str | None = Field(
        None, description="For `take`: the upcard.", json_schema_extra=replacing(nullable(CARD))
    )
    top: str | None = Field(
        None,
        description="For `draw`: the pile's top card.",
        json_schema_extra=replacing(nullable(CARD)),
    )
    text: str = Field(description="The judgement in words, in your language.")


class WorstJudged(Judged):
    hand_number: int
    name: str = Field(description="The player whose decision it was.")
    url: str = Field(description="The replay's page at this decision.")


class SeatAccuracy(Schema):
    seat: int
    name: str
    accuracy: float | None = Field(description="0 to 100; null without a judged decision.")
    decisions: int = Field(description="The decisions judged (a single legal action is none).")
    inaccuracy: int
    mistake: int
    blunder: int


class HandReviewOut(Schema):
    status: Status = Field(
        description="`ready`; `hidden`: not yours while the match runs (you watch it); "
        "`later`: not judged yet, too many reviews asked for just now."
    )
    retry_after: int | None = Field(description="With `later`: seconds to wait.")
    seats: list[SeatAccuracy] | None = Field(None, description="Each shown seat in this hand.")
    decisions: list[Judged] | None = Field(None, description="The shown seats' decisions.")


class HandAccuracy(Schema):
    hand_number: int
    url: str
    seats: list[SeatAccuracy]


class MatchReviewOut(Schema):
    status: Literal["ready"]
    retry_after: int | None = Field(
        description="Set when the reviews you may ask for ran out before every hand was judged."
    )
    complete: bool = Field(description="Every finished hand judged; if not, ask again.")
    hands_finished: int
    hands_reviewed: int
    seats: list[SeatAccuracy] = Field(description="Each shown seat over the judged hands.")
    hands: list[HandAccuracy]
    worst: list[WorstJudged] = Field(description="The costliest marked decisions, at most 3.")
