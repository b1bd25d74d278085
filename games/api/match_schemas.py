"""The matches' bodies and answers as the API's schema names them: the actions a client sends,
a match's summary and detail, its rating, offers, and the history and "your turn" rows."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from ninja import Field, Schema

from games.api import view_schema
from games.records import matches as history
from ginsite.lib.apikit import Body, Params, Preset, Target, WholeNumber

Card = Annotated[str, Field(pattern=r"^[A2-9TJQK][CDHS]$", examples=["TD"])]
# A player's own seed for the provably fair deal (docs/fairness.md).
PlayerSeed = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]


class PlainAction(Body):
    type: Literal["take_upcard", "pass", "big_gin", "next_hand"]


class DrawAction(Body):
    type: Literal["draw"]
    from_: Literal["stock", "discard"] = Field(alias="from")

    model_config = {"extra": "forbid", "strict": True, "populate_by_name": True}


class CardAction(Body):
    type: Literal["discard", "knock", "gin"]
    card: Card


class SeedAction(Body):
    type: Literal["seed"]
    seed: PlayerSeed | None = Field(
        None, description="Yours for the hand being shuffled, random and fresh; none without it."
    )


Action = Annotated[PlainAction | DrawAction | CardAction | SeedAction, Field(discriminator="type")]


class ActionIn(Body):
    action: Action
    version: WholeNumber = Field(
        ge=0, description="The view's `version` this move was chosen on (409 if stale)."
    )
    seed: PlayerSeed | None = Field(
        None,
        description="With a `seed` action, its seed. Beside any other it changes nothing, "
        "except in matches of the older scheme `sha256-fisher-yates-1` (docs/fairness.md).",
    )


class VersionIn(Body):
    version: WholeNumber = Field(ge=0)


class OfferIn(Body):
    kind: Literal["rematch", "restart"]
    version: WholeNumber = Field(ge=0)


class BeaIn(Body):
    preset: Preset = "standard"
    target: Target = 100
    level: Literal["easy", "medium", "hard", "expert"] = "medium"
    replace: bool = Field(
        False, description="Abandon (and lose) your running match against Bea, if any."
    )


class SeatOut(Schema):
    seat: int
    kind: Literal["player", "guest", "bea", "local"]
    username: str | None
    display_name: str
    bea_level: str | None


class MatchRating(Schema):
    rated: bool = Field(description="Played for rating: agreed so when the match was made.")
    outcome: Literal["casual", "pending", "rated", "aborted", "restarted"] = Field(
        description='What the match counts for: "casual" (not for rating, or made casual by '
        'the daily cap: see `reason`), "pending" (rated, still in play), "rated" (the ratings '
        'changed: each player got a `rating` event), "aborted" (ended too early to count), '
        '"restarted" (replaced by a restart, which is rated instead).'
    )
    reason: Literal["not_rated", "daily_cap", "ended_early", "restarted"] | None = Field(
        description='Why it is not rated: "not_rated" (casual from the start), "daily_cap" '
        "(the two players' fourth rated result against each other within 24 hours), "
        '"ended_early" (resigned, abandoned or won on time before the first hand was over or '
        'before both players made two moves at the cards), "restarted"; null when rated.'
    )
    message: str | None = Field(description="The reason in words, in your language.")


class MatchSummary(Schema):
    id: str
    kind: Literal["bea", "lobby", "private", "local"]
    status: Literal["active", "finished", "resigned", "abandoned", "timed_out", "restarted"]
    seat: int | None = Field(description="Your seat; null when you are watching.")
    seats: list[SeatOut]
    version: int
    scores: list[int]
    your_turn: bool
    winner_seat: int | None
    rules: dict[str, Any] = Field(json_schema_extra=view_schema.replacing(view_schema.RULES))
    days_per_move: int | None = Field(
        description="A correspondence match: days per move (see `GET /me/your-turn`); null: live."
    )
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None
    previous: str | None
    rating: MatchRating | None = Field(
        None, description="What the match counts for in the ratings (null: the site has none)."
    )
    arena: str | None = Field(
        None, description="The id of the arena this match is played in; null: none."
    )


class MatchDetail(MatchSummary):
    view: dict[str, Any] = Field(
        description="Your seat's player_view (see docs/api.md), or the spectator view.",
        json_schema_extra=view_schema.replacing(view_schema.VIEW),
    )
    live: dict[str, Any] | None = Field(
        description="Between two people: presence, the open offer, the next match.",
        json_schema_extra=view_schema.replacing(view_schema.LIVE),
    )


class OfferOut(Schema):
    id: int
    kind: Literal["rematch", "restart"]
    from_seat: int
    status: Literal["pending", "accepted", "declined", "withdrawn"]
    result: str | None


class Answered(Schema):
    offer: OfferOut
    next: str | None = Field(description="The match an accepted offer started.")


class MatchQuery(Params):
    status: Literal["active", "finished", "all"] = "all"
    limit: int = Field(50, ge=1, le=200)


class ScoreOut(Schema):
    mine: int
    theirs: int


class HistoryRow(Schema):
    id: str
    kind: Literal["bea", "lobby", "private", "local"]
    opponent: str = Field(description="The opponent's display name (Bea, a player, a guest).")
    opponent_username: str | None = Field(description="Null for Bea and for guests.")
    rules: Literal["standard", "classic", "simple"]
    target: int
    score: ScoreOut
    result: Literal["running", "won", "lost"]
    status: Literal["active", "finished", "resigned", "abandoned", "timed_out"]
    created_at: datetime
    finished_at: datetime | None
    url: str = Field(description="The table's page (read-only once the match is over).")


class TurnRow(Schema):
    id: str = Field(description="The match (`GET /matches/{id}`).")
    seat: int
    opponent: str = Field(description="The opponent's display name.")
    opponent_username: str | None
    rules: Literal["standard", "classic", "simple"]
    target: int
    days_per_move: Literal[1, 3, 7]
    scores: list[int]
    deadline: datetime | None = Field(
        description="Until when you may move; after it your opponent may claim the win. "
        "Waiting for your seed: when the hand is dealt without it."
    )
    seconds_left: int | None = Field(description="Until the deadline, as of this answer.")
    time_left: str = Field(description='The time left in words ("2 days 5 hours left").')
    version: int = Field(description="The match's version, to move on.")
    waiting_for: Literal["move", "seed"] = Field(
        description='"move": it is your move (until `deadline`). "seed": the hand waits for '
        "your seed for its deal (the action `seed`, docs/fairness.md), and is dealt without it "
        "at `deadline`, seconds from now."
    )


class HistoryPage(Schema):
    count: int = Field(description="All your matches (every page).")
    page: int
    pages: int
    next: int | None = Field(description="The next (older) page, or null.")
    previous: int | None = Field(description="The previous (newer) page, or null.")
    results: list[HistoryRow]


class HistoryQuery(Params):
    page: int = Field(1, ge=1, le=1_000_000)
    per_page: int = Field(history.PAGE_SIZE, ge=1, le=100)
