"""The shapes of the lobby's part of the JSON API (``lobby.api.routes``): what its operations take
and answer, as the OpenAPI schema at /api/docs documents them."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from ninja import Field, Schema

from games.api.view_schema import replacing
from ginsite.lib.apikit import Body, DaysPerMove, Params, Preset, Target
from ginsite.lib.numbers import LARGEST
from lobby.events import log as event_log
from lobby.events import schema as event_schema
from lobby.people import completion
from lobby.people.api import HeadToHead, PresetRecord, PublicMatch
from lobby.ratings.api import Standing


class Person(Schema):
    username: str
    display_name: str


class Stats(Schema):
    matches_played: int
    matches_won: int
    hands_won: int
    gins: int
    undercuts: int
    best_hand: int


def _completion_field() -> Any:
    return Field(
        description=f"Per cent (0-100, rounded down) of the player's last {completion.LAST} "
        "finished lobby matches that they did not abandon or lose on time (a resignation does "
        "not count against them); null before their first finished lobby match."
    )


class Me(Person, Standing):
    language: str = Field(description="Blank: no preference (the browser decides).")
    email_verified: bool = Field(
        description="Whether you have confirmed an e-mail address by its link (rated play "
        "needs one). The address itself is shown only in Settings."
    )
    stats: Stats
    completion: int | None = _completion_field()


class Player(Person):
    busy: bool = Field(description="Playing a lobby match right now.")
    me: bool
    blocked: bool = Field(
        description="Always false: players you blocked, and players who blocked you, are not "
        "listed. Kept so that older clients still find it."
    )
    completion: int | None = _completion_field()


class PlayerProfile(Person):
    online: bool
    stats: Stats
    completion: int | None = _completion_field()
    record: list[PresetRecord] = Field(description="Wins and losses in the lobby, per preset.")
    recent_matches: list[PublicMatch] = Field(
        description="The latest lobby matches, newest first (private tables, lessons and "
        "matches against Bea are never listed)."
    )
    head_to_head: HeadToHead | None = Field(
        description="Your wins and losses against this player in the lobby; null on your own."
    )
    following: bool = Field(description="You follow this player (and no block stands between).")


ReasonName = Literal["later", "rules", "target", "not_interested"]
ChallengeStatus = Literal["open", "accepted", "declined", "cancelled", "expired"]


class CounterOut(Schema):
    """The rules a challenged player would play instead, sent back with their decline."""

    id: int = Field(
        description="The proposal is itself a challenge from the player who declined: "
        "`GET /challenges/{id}` shows it, and `POST /challenges/{id}/accept` takes it as "
        "`accept-counter` does."
    )
    preset: str
    target: int
    hints: bool
    days_per_move: int | None = Field(description="As the challenge's: days per move, or null.")
    status: ChallengeStatus
    expires_at: datetime
    match: str | None = Field(description="The match an accepted proposal started.")


class ChallengeOut(Schema):
    id: int
    direction: Literal["incoming", "outgoing"]
    challenger: Person
    challenged: Person
    preset: str
    target: int
    hints: bool = Field(description="Both players may ask for hints in the match.")
    rated: bool = Field(description="Played for rating (Glicko-2, per preset); false: casual.")
    days_per_move: int | None = Field(
        description="A correspondence challenge: days per move (it waits days for an answer, "
        "online or not); null: live."
    )
    status: ChallengeStatus
    reason: ReasonName | None
    created_at: datetime
    expires_at: datetime
    answered_at: datetime | None
    match: str | None = Field(description="The match an accepted challenge started.")
    counter: CounterOut | None = Field(
        description="A declined challenge's counter-proposal: what the challenged player "
        "would play instead (`POST /challenges/{id}/accept-counter` takes it)."
    )
    counter_to: int | None = Field(
        description="This challenge is a counter-proposal: the id of the challenge it declined."
    )


class Challenges(Schema):
    incoming: list[ChallengeOut]
    outgoing: list[ChallengeOut]


class ChallengeIn(Body):
    # No NUL: the schema says so too, so that a client (and schemathesis) knows it is refused.
    to: str = Field(
        description="The username of the player to challenge.",
        max_length=150,
        pattern=r"^[^\x00]*$",
    )
    preset: Preset = "standard"
    target: Target = 100
    hints: bool = Field(
        False,
        description="Either player may ask what Bea would do (the hint); accepting agrees.",
    )
    rated: bool = Field(
        False,
        description="Play for rating: the result changes both players' ratings in the "
        "preset (at most 3 rated results a day between the same two players; later ones "
        "are casual). False: casual.",
    )
    days_per_move: DaysPerMove | None = Field(
        None,
        description="A correspondence match: the player to move has this many days (1, 3 or "
        "7) from the start of their turn, and neither player needs to be online. Null or left "
        "out: a live match (the move clock).",
    )


class CounterIn(Body):
    """The rules the decliner would play instead; what is left out is kept from the challenge."""

    preset: Preset | None = None
    target: Target | None = None


class DeclineIn(Body):
    reason: ReasonName = "later"
    counter: CounterIn | None = Field(
        None,
        description="With reason `rules` or `target`: the rules you would play instead. The "
        "challenger may accept them at once; the reason is set to what they change.",
    )


class SeekOut(Schema):
    id: int
    poster: Person
    preset: str
    target: int
    rated: bool = Field(description="Played for rating (Glicko-2, per preset); false: casual.")
    days_per_move: int | None = Field(description="Correspondence: days per move; null: live.")
    status: Literal["open", "accepted", "cancelled", "expired"]
    created_at: datetime
    mine: bool
    match: str | None


class SeekIn(Body):
    preset: Preset = "standard"
    target: Target = 100
    rated: bool = Field(False, description="Play for rating; false: casual.")
    days_per_move: DaysPerMove | None = Field(
        None,
        description="A correspondence match: the player to move has this many days (1, 3 or "
        "7) from the start of their turn, and neither player needs to be online. Null or left "
        "out: a live match (the move clock).",
    )


class Started(Schema):
    """A challenge or seek accepted: the match it started (``GET /matches/{match}``)."""

    match: str
    challenge: ChallengeOut | None = None
    seek: SeekOut | None = None


class Hello(Schema):
    type: Literal["hello"]
    since: int
    last_seq: int
    complete: bool = Field(
        description="False when events after `since` were already purged: re-read the state."
    )


class Event(Schema):
    type: Literal["challenge", "match", "message", "rating", "paired", "moderation", "arena"] = (
        Field(
            description="`challenge`: a challenge to or from you was sent or answered (`data`: "
            "the challenge). `match`: one of your matches started or changed (`data`: `match`, "
            "`version`, `status`, `seat`, `view`, `superseded`). "
            "`message`: a quick message in one of your matches (`data`: `match`, "
            "`seat`, `from`, `message` id, `mine`). `rating`: your rating changed after a rated "
            "match (see Ratings in docs/api.md). `paired`: the pool or an arena paired you (see "
            "Quick pairing, Arenas). `moderation`: a moderator's sanction of you, given or lifted "
            "(`data`: `id`, `kind`, `topic`, `lifted`, `message`; see docs/moderation.md). "
            "`arena`: an arena you joined started or is over (see Arenas)."
        )
    )
    seq: int
    at: datetime
    data: dict[str, Any] = Field(
        description="What happened, by `type` (docs/api.md, Events).",
        json_schema_extra=replacing(event_schema.data(event_schema.inlined(ChallengeOut))),
    )


class EventPage(Schema):
    hello: Hello
    events: list[Event]


# --- Events -------------------------------------------------------------------------------------


# Where a client's event log resumes: the same in the batch read and in the stream.
Since = Annotated[
    int | None,
    Field(
        ge=0,
        le=LARGEST,
        description="The last event number you have; omitted: only new events. A number past "
        "your last event is refused (422 `since_ahead`).",
    ),
]


class EventQuery(Params):
    since: Since = None
    limit: int = Field(100, ge=1, le=event_log.BATCH)


class StreamQuery(Params):
    since: Since = None
    presence: bool = Field(
        True,
        description="Send a `presence` line (how many are online) when that changed, at most "
        "every 5 seconds; false: none.",
    )
