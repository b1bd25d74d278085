"""The lobby's part of the JSON API: me, who is online, challenges, seeks and the event stream.

Thin, like the lobby's views: an access helper, one call into ``lobby.services`` (the lobby's
one door), an answer. Refusals are the services' own (``Refused`` and its subclasses), turned
into JSON by ``ginsite.api``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
import uuid
from collections.abc import AsyncGenerator
from datetime import datetime
from typing import Any, Literal

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.contrib.auth import get_user_model
from django.db.models import Q
from django.http import HttpRequest, StreamingHttpResponse
from django.shortcuts import get_object_or_404
from ninja import Field, Query, Router, Schema, Status

from games.services import player_stats
from ginsite.apikit import ERRORS, ApiError, Body, Error, Preset, Target, user_of
from lobby import events
from lobby import services as lobby_services
from lobby.models import Block, Challenge, Seek, display_name_of, ensure_profile

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


class Me(Person):
    language: str = Field(description="Blank: no preference (the browser decides).")
    stats: Stats


class Player(Person):
    busy: bool = Field(description="Playing a lobby match right now.")
    me: bool
    blocked: bool = Field(description="You blocked this player.")


class PlayerProfile(Person):
    online: bool
    stats: Stats


class ChallengeOut(Schema):
    id: int
    direction: Literal["incoming", "outgoing"]
    challenger: Person
    challenged: Person
    preset: str
    target: int
    status: Literal["open", "accepted", "declined", "cancelled", "expired"]
    reason: Literal["later", "rules", "not_interested"] | None
    created_at: datetime
    expires_at: datetime
    answered_at: datetime | None
    match: str | None = Field(description="The match an accepted challenge started.")


class Challenges(Schema):
    incoming: list[ChallengeOut]
    outgoing: list[ChallengeOut]


class ChallengeIn(Body):
    to: str = Field(description="The username of the player to challenge.", max_length=150)
    preset: Preset = "standard"
    target: Target = 100


class DeclineIn(Body):
    reason: Literal["later", "rules", "not_interested"] = "later"


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


def _challenge_for_user(user: Any, pk: int) -> Challenge:
    """A challenge the user sent or received; anyone else's is 404, as if it did not exist."""
    return get_object_or_404(
        Challenge.objects.select_related(
            "challenger__profile", "challenged__profile", "match"
        ).filter(Q(challenger=user) | Q(challenged=user)),
        pk=pk,
    )


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


def _seek(pk: int) -> Seek:
    return get_object_or_404(Seek.objects.select_related("poster__profile", "match"), pk=pk)


def _player(username: str) -> Any:
    user_model = get_user_model()
    return get_object_or_404(
        user_model.objects.select_related("profile"),
        **{user_model.USERNAME_FIELD: username, "is_active": True},
    )


# --- Me and players -----------------------------------------------------------------------------


@router.get("/me", response={200: Me, ERRORS: Error}, tags=["players"])
def me(request: HttpRequest) -> dict[str, Any]:
    """The signed-in player: display name, language and statistics."""
    user = user_of(request)
    profile = ensure_profile(user)
    return {**_person(user), "language": profile.language, "stats": player_stats(user)}


@router.get("/players/online", response={200: list[Player], ERRORS: Error}, tags=["players"])
def players_online(request: HttpRequest) -> list[dict[str, Any]]:
    """Who is in the lobby now (asking counts as being there, as opening the lobby does)."""
    user = user_of(request)
    lobby_services.seen_over_http(user)
    online = lobby_services.online_user_ids()
    busy = lobby_services.busy_user_ids()
    blocked_me = set(Block.objects.filter(blocked=user).values_list("blocker_id", flat=True))
    i_blocked = set(Block.objects.filter(blocker=user).values_list("blocked_id", flat=True))
    users = (
        get_user_model()
        .objects.filter(pk__in=online - blocked_me, is_active=True)
        .select_related("profile")
        .order_by("profile__display_name")
    )
    return [
        {
            **_person(other),
            "busy": other.pk in busy,
            "me": other.pk == user.pk,
            "blocked": other.pk in i_blocked,
        }
        for other in users
    ]


@router.get("/players/{username}", response={200: PlayerProfile, ERRORS: Error}, tags=["players"])
def player(request: HttpRequest, username: str) -> dict[str, Any]:
    """A player's public profile: name, whether they are in the lobby, statistics."""
    other = _player(username)
    return {
        **_person(other),
        "online": lobby_services.is_online(other.pk),
        "stats": player_stats(other),
    }


# --- Challenges ---------------------------------------------------------------------------------


@router.get("/challenges", response={200: Challenges, ERRORS: Error}, tags=["challenges"])
def list_challenges(request: HttpRequest) -> dict[str, Any]:
    """Open challenges to and from you, and those answered in the last ten minutes."""
    user = user_of(request)
    lobby_services.sweep()
    since = lobby_services._now() - lobby_services.ANSWER_SHOWN
    items = (
        Challenge.objects.filter(Q(challenger=user) | Q(challenged=user))
        .filter(Q(status=Challenge.Status.OPEN) | Q(answered_at__gt=since))
        .select_related("challenger__profile", "challenged__profile", "match")
        .order_by("-created_at")[:100]
    )
    shown = [events.challenge_json(item, user.pk) for item in items]
    return {
        "incoming": [c for c in shown if c["direction"] == "incoming"],
        "outgoing": [c for c in shown if c["direction"] == "outgoing"],
    }


@router.post("/challenges", response={201: ChallengeOut, ERRORS: Error}, tags=["challenges"])
def create_challenge(request: HttpRequest, body: ChallengeIn) -> Status:
    """Challenge a player who is in the lobby. It expires after two minutes unanswered."""
    user = user_of(request)
    user_model = get_user_model()
    other = user_model.objects.filter(
        **{user_model.USERNAME_FIELD: body.to, "is_active": True}
    ).first()
    if other is None:
        raise ApiError(404, "not_found", "There is no player of that name.")
    made = lobby_services.challenge(user, other, body.preset, body.target)
    made = _challenge_for_user(user, made.pk)
    return Status(201, events.challenge_json(made, user.pk))


@router.get(
    "/challenges/{challenge_id}", response={200: ChallengeOut, ERRORS: Error}, tags=["challenges"]
)
def get_challenge(request: HttpRequest, challenge_id: int) -> dict[str, Any]:
    user = user_of(request)
    return events.challenge_json(_challenge_for_user(user, challenge_id), user.pk)


@router.post(
    "/challenges/{challenge_id}/accept",
    response={201: Started, ERRORS: Error},
    tags=["challenges"],
)
def accept_challenge(request: HttpRequest, challenge_id: int) -> Status:
    """Accept a challenge to you: the match starts (you play second)."""
    user = user_of(request)
    item = _challenge_for_user(user, challenge_id)
    lobby_services.seen_over_http(user)
    match = lobby_services.accept_challenge(item, user)
    item = _challenge_for_user(user, challenge_id)
    return Status(
        201, {"match": match.public_id, "challenge": events.challenge_json(item, user.pk)}
    )


@router.post(
    "/challenges/{challenge_id}/decline",
    response={200: ChallengeOut, ERRORS: Error},
    tags=["challenges"],
)
def decline_challenge(
    request: HttpRequest, challenge_id: int, body: DeclineIn | None = None
) -> dict[str, Any]:
    """Decline a challenge to you, with a reason the challenger sees."""
    user = user_of(request)
    item = _challenge_for_user(user, challenge_id)
    lobby_services.decline_challenge(item, user, (body or DeclineIn()).reason)
    return events.challenge_json(_challenge_for_user(user, challenge_id), user.pk)


@router.post(
    "/challenges/{challenge_id}/cancel",
    response={200: ChallengeOut, ERRORS: Error},
    tags=["challenges"],
)
def cancel_challenge(request: HttpRequest, challenge_id: int) -> dict[str, Any]:
    """Withdraw a challenge you sent."""
    user = user_of(request)
    item = _challenge_for_user(user, challenge_id)
    lobby_services.cancel_challenge(item, user)
    return events.challenge_json(_challenge_for_user(user, challenge_id), user.pk)


# --- Seeks --------------------------------------------------------------------------------------


@router.get("/seeks", response={200: list[SeekOut], ERRORS: Error}, tags=["seeks"])
def list_seeks(request: HttpRequest) -> list[dict[str, Any]]:
    """Open seeks in the lobby (not those of players you blocked or who blocked you)."""
    user = user_of(request)
    lobby_services.seen_over_http(user)
    lobby_services.sweep()
    hidden = set(Block.objects.filter(blocker=user).values_list("blocked_id", flat=True))
    hidden |= set(Block.objects.filter(blocked=user).values_list("blocker_id", flat=True))
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
    return Status(201, _seek_json(_seek(seek.pk), user))


@router.get("/seeks/{seek_id}", response={200: SeekOut, ERRORS: Error}, tags=["seeks"])
def get_seek(request: HttpRequest, seek_id: int) -> dict[str, Any]:
    return _seek_json(_seek(seek_id), user_of(request))


@router.post("/seeks/{seek_id}/accept", response={201: Started, ERRORS: Error}, tags=["seeks"])
def accept_seek(request: HttpRequest, seek_id: int) -> Status:
    """Accept a seek: the match starts (the poster plays first). The first accepter wins; later
    ones get 409."""
    user = user_of(request)
    seek = _seek(seek_id)
    lobby_services.seen_over_http(user)
    match = lobby_services.accept_seek(seek, user)
    return Status(201, {"match": match.public_id, "seek": _seek_json(_seek(seek_id), user)})


@router.post("/seeks/{seek_id}/cancel", response={200: SeekOut, ERRORS: Error}, tags=["seeks"])
def cancel_seek(request: HttpRequest, seek_id: int) -> dict[str, Any]:
    user = user_of(request)
    seek = _seek(seek_id)
    lobby_services.cancel_seek(seek, user)
    return _seek_json(_seek(seek_id), user)


# --- Events -------------------------------------------------------------------------------------

# A line every this many seconds while nothing else is sent, so proxies and clients can tell a
# quiet stream from a dead one. Also how often the stream keeps its player in the lobby.
KEEPALIVE_SECONDS = 10.0


class EventQuery(Schema):
    since: int | None = Field(
        None, ge=0, description="The last event number you have; omitted: only new events."
    )
    limit: int = Field(100, ge=1, le=events.BATCH)


@router.get("/events", response={200: EventPage, ERRORS: Error}, tags=["events"])
def list_events(request: HttpRequest, query: Query[EventQuery]) -> dict[str, Any]:
    """Your events after ``since`` (oldest first, at most ``limit``): for clients that poll."""
    user = user_of(request)
    since = events.last_seq(user.pk) if query.since is None else query.since
    found = events.fetch(user.pk, since, query.limit)
    return {"hello": events.hello(user.pk, since), "events": events.deliver(user, found)}


def _line(item: dict[str, Any]) -> bytes:
    return (json.dumps(item, separators=(",", ":"), default=str) + "\n").encode()


async def event_lines(user: Any, since: int | None, presence: str) -> AsyncGenerator[bytes, None]:
    """The stream of one player: hello, what they missed after ``since``, then live events as
    they are announced on the player's group, and a keep-alive line whenever it is quiet.

    Shared by the NDJSON response and the websocket consumer (``lobby.stream``). While it
    runs, the player counts as in the lobby (``presence`` is its presence row's name)."""
    layer = get_channel_layer()
    group = events.group_name(user.pk)
    channel = await layer.new_channel() if layer is not None else ""
    if layer is not None:
        await layer.group_add(group, channel)
    try:
        await sync_to_async(lobby_services.seen)(user, presence)
        start = since if since is not None else await sync_to_async(events.last_seq)(user.pk)
        yield _line(await sync_to_async(events.hello)(user.pk, start))
        cursor = start
        last_beat = time.monotonic()
        while True:
            # Everything not yet sent, in batches, before waiting for the next announcement.
            while True:
                batch = await sync_to_async(_next_batch)(user, cursor)
                for item in batch:
                    cursor = max(cursor, item["seq"])
                    yield _line(item)
                if len(batch) < events.BATCH:
                    break
            woke = False
            if layer is not None:
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(layer.receive(channel), timeout=KEEPALIVE_SECONDS)
                    woke = True
            else:
                await asyncio.sleep(KEEPALIVE_SECONDS)
            if time.monotonic() - last_beat >= KEEPALIVE_SECONDS:
                last_beat = time.monotonic()
                await sync_to_async(lobby_services.heartbeat)(user, presence)
            if not woke:
                yield _line({"type": "keepalive", "last_seq": cursor})
    finally:
        if layer is not None:
            await layer.group_discard(group, channel)
        await sync_to_async(lobby_services.left)(presence)


def _next_batch(user: Any, cursor: int) -> list[dict[str, Any]]:
    return events.deliver(user, events.fetch(user.pk, cursor))


@router.get(
    "/events/stream",
    response={200: None, ERRORS: Error},
    tags=["events"],
    openapi_extra={
        "responses": {
            200: {
                "description": (
                    "Newline-delimited JSON, one object a line, never ending: a `hello` line, "
                    "the events after `since`, then live events, and a `keepalive` line "
                    "every 10 seconds of quiet."
                ),
                "content": {"application/x-ndjson": {"schema": {"type": "string"}}},
            }
        }
    },
)
async def event_stream(request: HttpRequest, query: Query[EventQuery]) -> StreamingHttpResponse:
    """Your events as NDJSON, for clients without websockets (``/ws/events/`` is the same)."""
    user = user_of(request)
    presence = f"api-stream:{user.pk}:{uuid.uuid4().hex}"
    response = StreamingHttpResponse(
        event_lines(user, query.since, presence), content_type="application/x-ndjson"
    )
    # Proxies (nginx) must pass lines on at once rather than buffer them.
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    return response
