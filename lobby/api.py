"""The lobby's part of the JSON API: me, who is online, challenges, seeks and the event stream.

Thin, like the lobby's views: a lookup and one action of ``lobby.services`` (the lobby's one
door, which the pages call too), an answer. Refusals are the services' own
(``ginsite.refusals.Refused``), turned into JSON by ``ginsite.api``.
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from collections.abc import AsyncGenerator, Callable
from datetime import UTC, datetime
from typing import Any, Literal

from channels.layers import get_channel_layer
from django.db.models import Q
from django.http import HttpRequest, StreamingHttpResponse
from django.utils import timezone
from ninja import Field, Query, Router, Schema, Status

from games import presence as game_presence
from games.models import Match
from games.stats import player_stats
from ginsite.apikit import ERRORS, Body, Error, Preset, Target, api_time, user_of
from ginsite.dbwork import in_thread
from ginsite.inbox import Inbox
from ginsite.pushes import credentials_group, opened_with
from lobby import completion, event_feeds, event_log, presence, tokens
from lobby import services as lobby_services
from lobby.models import Challenge, Seek, display_name_of, ensure_profile

router = Router()


# --- Schemas ------------------------------------------------------------------------------------


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


class Me(Person):
    language: str = Field(description="Blank: no preference (the browser decides).")
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
    status: Literal["open", "accepted", "cancelled", "expired"]
    created_at: datetime
    mine: bool
    match: str | None


class SeekIn(Body):
    preset: Preset = "standard"
    target: Target = 100


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
    type: Literal["challenge", "presence", "match"]
    seq: int
    at: datetime
    data: dict[str, Any]


class EventPage(Schema):
    hello: Hello
    events: list[Event]


# --- Helpers ------------------------------------------------------------------------------------


def _person(user: Any) -> dict[str, str]:
    return {"username": user.get_username(), "display_name": display_name_of(user)}


def _challenge_json(user: Any, challenge_id: int) -> dict[str, Any]:
    """The challenge as it is now, as ``user`` sees it (read again after an action)."""
    return event_feeds.challenge_json(lobby_services.challenge_for(user, challenge_id), user.pk)


def _seek_json(seek: Seek, user: Any) -> dict[str, Any]:
    return {
        "id": seek.pk,
        "poster": _person(seek.poster),
        "preset": seek.preset,
        "target": seek.target,
        "status": seek.status,
        "created_at": seek.created_at,
        "mine": seek.poster_id == user.pk,
        "match": seek.match.public_id if seek.match_id and seek.match else None,
    }


# --- Me and players -----------------------------------------------------------------------------


@router.get("/me", response={200: Me, ERRORS: Error}, tags=["players"])
def me(request: HttpRequest) -> dict[str, Any]:
    """The signed-in player: display name, language and statistics."""
    user = user_of(request)
    profile = ensure_profile(user)
    return {
        **_person(user),
        "language": profile.language,
        "stats": player_stats(user),
        "completion": completion.of(user.pk),
    }


@router.get("/players/online", response={200: list[Player], ERRORS: Error}, tags=["players"])
def players_online(request: HttpRequest) -> list[dict[str, Any]]:
    """Who is in the lobby now (asking counts as being there, as opening the lobby does)."""
    user = user_of(request)
    presence.seen_over_http(user)
    listed = presence.online_players(user.pk)
    return [
        {
            **_person(other),
            "busy": other.pk in listed.busy,
            "me": other.pk == user.pk,
            "blocked": False,
            "completion": listed.completion.get(other.pk),
        }
        for other in listed.users
    ]


@router.get("/players/{username}", response={200: PlayerProfile, ERRORS: Error}, tags=["players"])
def player(request: HttpRequest, username: str) -> dict[str, Any]:
    """A player's public profile: name, whether they are in the lobby, statistics."""
    other = lobby_services.player_named(username)
    hidden = other.pk in presence.hidden_from(user_of(request).pk)
    return {
        **_person(other),
        "online": not hidden and presence.is_online(other.pk),
        "stats": player_stats(other),
        "completion": completion.of(other.pk),
    }


# --- Challenges ---------------------------------------------------------------------------------


@router.get("/challenges", response={200: Challenges, ERRORS: Error}, tags=["challenges"])
def list_challenges(request: HttpRequest) -> dict[str, Any]:
    """Open challenges to and from you, and those answered in the last ten minutes."""
    user = user_of(request)
    presence.sweep()
    since = timezone.now() - lobby_services.ANSWER_SHOWN
    items = (
        Challenge.objects.filter(Q(challenger=user) | Q(challenged=user))
        .filter(Q(status=Challenge.Status.OPEN) | Q(answered_at__gt=since))
        .select_related(*event_feeds.CHALLENGE_RELATED)
        .order_by("-created_at")[:100]
    )
    shown = [event_feeds.challenge_json(item, user.pk) for item in items]
    return {
        "incoming": [c for c in shown if c["direction"] == "incoming"],
        "outgoing": [c for c in shown if c["direction"] == "outgoing"],
    }


@router.post("/challenges", response={201: ChallengeOut, ERRORS: Error}, tags=["challenges"])
def create_challenge(request: HttpRequest, body: ChallengeIn) -> Status:
    """Challenge a player who is in the lobby. It expires after two minutes unanswered."""
    user = user_of(request)
    other = lobby_services.player_named(body.to)
    made = lobby_services.challenge(user, other, body.preset, body.target, body.hints)
    return Status(201, _challenge_json(user, made.pk))


@router.get(
    "/challenges/{challenge_id}", response={200: ChallengeOut, ERRORS: Error}, tags=["challenges"]
)
def get_challenge(request: HttpRequest, challenge_id: int) -> dict[str, Any]:
    return _challenge_json(user_of(request), challenge_id)


@router.post(
    "/challenges/{challenge_id}/accept",
    response={201: Started, ERRORS: Error},
    tags=["challenges"],
)
def accept_challenge(request: HttpRequest, challenge_id: int) -> Status:
    """Accept a challenge to you: the match starts (you play second)."""
    return _started(request, challenge_id, lobby_services.accept_challenge)


@router.post(
    "/challenges/{challenge_id}/decline",
    response={200: ChallengeOut, ERRORS: Error},
    tags=["challenges"],
)
def decline_challenge(
    request: HttpRequest, challenge_id: int, body: DeclineIn | None = None
) -> dict[str, Any]:
    """Decline a challenge to you, with a reason the challenger sees, and perhaps a
    counter-proposal: the rules you would play instead."""
    user = user_of(request)
    item = lobby_services.challenge_for(user, challenge_id)
    counter = body.counter if body else None
    lobby_services.decline_challenge(
        item,
        user,
        body.reason if body else "later",
        lobby_services.Proposal(counter.preset, counter.target) if counter else None,
    )
    return _challenge_json(user, challenge_id)


@router.post(
    "/challenges/{challenge_id}/accept-counter",
    response={201: Started, ERRORS: Error},
    tags=["challenges"],
)
def accept_counter(request: HttpRequest, challenge_id: int) -> Status:
    """Accept the counter-proposal a challenge of yours was declined with: the match starts
    at once with the proposed rules (the player who proposed them plays first)."""
    return _started(request, challenge_id, lobby_services.accept_counter)


def _started(
    request: HttpRequest, challenge_id: int, accept: Callable[[Challenge, Any], Match]
) -> Status:
    """An accept of a challenge (or of its counter-proposal): the match and the challenge."""
    user = user_of(request)
    match = accept(lobby_services.challenge_for(user, challenge_id), user)
    return Status(201, {"match": match.public_id, "challenge": _challenge_json(user, challenge_id)})


@router.post(
    "/challenges/{challenge_id}/cancel",
    response={200: ChallengeOut, ERRORS: Error},
    tags=["challenges"],
)
def cancel_challenge(request: HttpRequest, challenge_id: int) -> dict[str, Any]:
    """Withdraw a challenge you sent."""
    user = user_of(request)
    lobby_services.cancel_challenge(lobby_services.challenge_for(user, challenge_id), user)
    return _challenge_json(user, challenge_id)


# --- Seeks --------------------------------------------------------------------------------------


@router.get("/seeks", response={200: list[SeekOut], ERRORS: Error}, tags=["seeks"])
def list_seeks(request: HttpRequest) -> list[dict[str, Any]]:
    """Open seeks in the lobby (not those of players you blocked or who blocked you)."""
    user = user_of(request)
    presence.seen_over_http(user)
    presence.sweep()
    hidden = presence.hidden_from(user.pk)
    seeks = (
        Seek.objects.filter(status=Seek.Status.OPEN)
        .exclude(poster_id__in=hidden)
        .select_related("poster__profile", "match")
    )
    return [_seek_json(seek, user) for seek in seeks[:200]]


@router.post("/seeks", response={201: SeekOut, ERRORS: Error}, tags=["seeks"])
def post_seek(request: HttpRequest, body: SeekIn) -> Status:
    """Offer a match to anyone in the lobby; the first to accept plays you. One at a time."""
    user = user_of(request)
    seek = lobby_services.post_seek(user, body.preset, body.target)
    return Status(201, _seek_json(lobby_services.seek_for(seek.pk), user))


@router.get("/seeks/{seek_id}", response={200: SeekOut, ERRORS: Error}, tags=["seeks"])
def get_seek(request: HttpRequest, seek_id: int) -> dict[str, Any]:
    return _seek_json(lobby_services.seek_for(seek_id), user_of(request))


@router.post("/seeks/{seek_id}/accept", response={201: Started, ERRORS: Error}, tags=["seeks"])
def accept_seek(request: HttpRequest, seek_id: int) -> Status:
    """Accept a seek: the match starts (the poster plays first). The first accepter wins; later
    ones get 409."""
    user = user_of(request)
    match = lobby_services.accept_seek(lobby_services.seek_for(seek_id), user)
    return Status(
        201, {"match": match.public_id, "seek": _seek_json(lobby_services.seek_for(seek_id), user)}
    )


@router.post("/seeks/{seek_id}/cancel", response={200: SeekOut, ERRORS: Error}, tags=["seeks"])
def cancel_seek(request: HttpRequest, seek_id: int) -> dict[str, Any]:
    user = user_of(request)
    lobby_services.cancel_seek(lobby_services.seek_for(seek_id), user)
    return _seek_json(lobby_services.seek_for(seek_id), user)


# --- Events -------------------------------------------------------------------------------------

# A line every this many seconds while nothing else is sent, so proxies and clients can tell a
# quiet stream from a dead one. Also how often the stream keeps its player in the lobby.
KEEPALIVE_SECONDS = 10.0
# A stream says how many are online at most this often, and only when it changed.
PRESENCE_EVERY = 5.0


class EventQuery(Schema):
    since: int | None = Field(
        None, ge=0, description="The last event number you have; omitted: only new events."
    )
    limit: int = Field(100, ge=1, le=event_log.BATCH)


class StreamQuery(Schema):
    since: int | None = Field(
        None, ge=0, description="The last event number you have; omitted: only new events."
    )
    presence: bool = Field(
        True,
        description="Send a `presence` line (how many are online) when that changed, at most "
        "every 5 seconds; false: none.",
    )


@router.get("/events", response={200: EventPage, ERRORS: Error}, tags=["events"])
def list_events(request: HttpRequest, query: Query[EventQuery]) -> dict[str, Any]:
    """Your events after ``since`` (oldest first, at most ``limit``): for clients that poll."""
    user = user_of(request)
    since = event_log.last_seq(user.pk) if query.since is None else query.since
    found = event_log.fetch(user.pk, since, query.limit)
    return {"hello": event_log.hello(user.pk, since), "events": event_log.deliver(user, found)}


def _line(item: dict[str, Any]) -> bytes:
    return (json.dumps(item, separators=(",", ":"), default=str) + "\n").encode()


async def event_lines(
    user: Any,
    since: int | None,
    presence_row: str,
    *,
    credential: tuple[str, Any] = ("token", None),
    with_presence: bool = True,
) -> AsyncGenerator[bytes, None]:
    """The stream of one player: hello, what they missed after ``since``, then live events as
    they are announced on the player's group, a ``presence`` line (how many are online) at
    most every PRESENCE_EVERY seconds when that changed, and a keep-alive line whenever it is
    quiet.

    Shared by the NDJSON response and the websocket consumer (``lobby.stream``). While it
    runs, the player counts as in the lobby (``presence_row`` is its presence row's name). It
    ends when the token or session it was opened with (``credential``) ends."""
    layer = get_channel_layer()
    groups = (event_log.group_name(user.pk), credentials_group(user.pk))
    inbox = Inbox(layer) if layer is not None else None
    if inbox is not None:
        await inbox.open()
        for group in groups:
            await layer.group_add(group, inbox.channel)
    try:
        await in_thread(_here)(user, presence_row)
        start = since if since is not None else await in_thread(event_log.last_seq)(user.pk)
        yield _line(await in_thread(event_log.hello)(user.pk, start))
        cursor = start
        last_beat = time.monotonic()
        presence_shown = 0.0
        presence_due = 0.0
        pushed: dict[str, Any] | None = None
        while True:
            if pushed is not None and pushed["seq"] == cursor + 1:
                # The next event came with its wake-up, as it is delivered: no read needed.
                cursor = pushed["seq"]
                yield _line(pushed)
            else:
                # Everything not yet sent, in batches, before waiting for the next one.
                while True:
                    batch = await in_thread(_next_batch)(user, cursor)
                    for item in batch:
                        cursor = max(cursor, item["seq"])
                        yield _line(item)
                    if len(batch) < event_log.BATCH:
                        break
            # The sign of life after the event went out, not on its way.
            if time.monotonic() - last_beat >= KEEPALIVE_SECONDS:
                last_beat = time.monotonic()
                await in_thread(_still_here)(user, presence_row)
            if with_presence and time.monotonic() >= presence_due:
                note = await in_thread(presence.snapshot)()
                if note is not None and note["at"] > presence_shown:
                    presence_shown, presence_due = note["at"], time.monotonic() + PRESENCE_EVERY
                    at = datetime.fromtimestamp(note["at"], tz=UTC)
                    yield _line({"type": "presence", "online": note["online"], "at": api_time(at)})
            try:
                news = await _wait_for_news(inbox, cursor, credential)
            except CredentialsEnded:
                return
            pushed = news.get("line") if news is not None else None
            if news is None:
                yield _line({"type": "keepalive", "last_seq": cursor})
    finally:
        if inbox is not None:
            try:
                for group in groups:
                    await layer.group_discard(group, inbox.channel)
            finally:
                await inbox.close()
        await in_thread(presence.left)(presence_row)


class CredentialsEnded(Exception):  # noqa: N818 - a state, not an error of the stream
    """The token or session the stream was opened with was revoked or signed out."""


async def _wait_for_news(
    inbox: Inbox | None, cursor: int, credential: tuple[str, Any]
) -> dict[str, Any] | None:
    """Wait up to KEEPALIVE_SECONDS for an event numbered past ``cursor``: its wake-up
    message, or None if none came. Wake-ups of events already sent (several events read in
    one batch each announce themselves) are taken off the channel without reading the
    database again. Raises ``CredentialsEnded`` when the stream's token or session ends."""
    if inbox is None:
        await asyncio.sleep(KEEPALIVE_SECONDS)
        return None
    deadline = time.monotonic() + KEEPALIVE_SECONDS
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        message = await inbox.get(timeout=left)
        if message is None:
            return None
        if message.get("type") == "credentials.ended":
            if opened_with(message, credential):
                raise CredentialsEnded
            continue
        if message.get("seq", cursor + 1) > cursor:
            return message


def _here(user: Any, presence_row: str) -> None:
    """An open stream is its player being here: in the lobby, and at each of their tables."""
    presence.seen(user, presence_row)
    game_presence.player_active(user.pk)


def _still_here(user: Any, presence_row: str) -> None:
    presence.heartbeat(user, presence_row)
    game_presence.player_active(user.pk)


def _credential(request: HttpRequest) -> tuple[str, Any]:
    """What the request signed in with: ``("token", id)`` or ``("session", key)``."""
    secret = tokens.bearer(request.headers.get("Authorization"))
    if secret is not None:
        token = tokens.authenticate_request(request, secret)
        return ("token", token.pk if token is not None else None)
    return ("session", request.session.session_key)


def _next_batch(user: Any, cursor: int) -> list[dict[str, Any]]:
    return event_log.deliver(user, event_log.fetch(user.pk, cursor))


@router.get(
    "/events/stream",
    response={200: None, ERRORS: Error},
    tags=["events"],
    openapi_extra={
        "responses": {
            200: {
                "description": (
                    "Newline-delimited JSON, one object a line, never ending: a `hello` line, "
                    "the events after `since`, then live events, a `presence` line (how "
                    "many are online) at most every 5 seconds when that changed, and a "
                    "`keepalive` line every 10 seconds of quiet."
                ),
                "content": {"application/x-ndjson": {"schema": {"type": "string"}}},
            }
        }
    },
)
async def event_stream(request: HttpRequest, query: Query[StreamQuery]) -> StreamingHttpResponse:
    """Your events as NDJSON, for clients without websockets (``/ws/events/`` is the same)."""
    user = user_of(request)
    row = f"api-stream:{user.pk}:{uuid.uuid4().hex}"
    lines = event_lines(
        user, query.since, row, credential=_credential(request), with_presence=query.presence
    )
    response = StreamingHttpResponse(
        lines,
        content_type="application/x-ndjson",
    )
    # Proxies (nginx) must pass lines on at once rather than buffer them.
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    return response
