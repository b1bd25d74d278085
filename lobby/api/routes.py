"""The lobby's part of the JSON API: me, who is online, challenges, seeks and the event stream.

Thin, like the lobby's views: a lookup and one action of ``lobby.services`` (the lobby's one
door, which the pages call too), an answer. Refusals are the services' own
(``ginsite.lib.refusals.Refused``), turned into JSON by ``ginsite.api``.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.db.models import Q
from django.http import HttpRequest, StreamingHttpResponse
from django.utils import timezone
from ninja import Query, Router, Status

from games.live import presence as game_presence
from games.models import Match
from games.records.stats import player_stats
from ginsite.lib.apikit import ERRORS, Error, user_of
from ginsite.lib.dbwork import in_thread
from ginsite.lib.numbers import PathInt
from lobby import presence
from lobby import services as lobby_services
from lobby.accounts import emails, tokens
from lobby.api.schemas import (
    ChallengeIn,
    ChallengeOut,
    Challenges,
    DeclineIn,
    EventPage,
    EventQuery,
    Me,
    Player,
    PlayerProfile,
    SeekIn,
    SeekOut,
    Started,
    StreamQuery,
)
from lobby.events import feeds as event_feeds
from lobby.events import log as event_log
from lobby.events import schema as event_schema
from lobby.events.stream import event_lines
from lobby.models import Challenge, Seek, ensure_profile
from lobby.people import completion
from lobby.people.api import public_record
from lobby.ratings.api import standing_json

router = Router()


# --- Helpers ------------------------------------------------------------------------------------


def _challenge_json(user: Any, challenge_id: PathInt) -> dict[str, Any]:
    """The challenge as it is now, as ``user`` sees it (read again after an action)."""
    return event_feeds.challenge_json(lobby_services.challenge_for(user, challenge_id), user.pk)


def _seek_json(seek: Seek, user: Any) -> dict[str, Any]:
    return {
        "id": seek.pk,
        "poster": event_feeds.person_json(seek.poster),
        "preset": seek.preset,
        "target": seek.target,
        "rated": seek.rated,
        "days_per_move": seek.days_per_move,
        "status": seek.status,
        "created_at": seek.created_at,
        "mine": seek.poster_id == user.pk,
        "match": seek.match.public_id if seek.match_id and seek.match else None,
    }


# --- Me and players -----------------------------------------------------------------------------


@router.get("/me", response={200: Me, ERRORS: Error}, tags=["players"])
def me(request: HttpRequest) -> dict[str, Any]:
    """The signed-in player: display name, language and statistics, whether they may play
    rated now, and any wait after too many aborts."""
    user = user_of(request)
    profile = ensure_profile(user)
    return {
        **event_feeds.person_json(user),
        "language": profile.language,
        "email_verified": emails.has_verified_email(user.pk),
        "stats": player_stats(user),
        "completion": completion.of(user.pk),
        **standing_json(user),
    }


@router.get("/players/online", response={200: list[Player], ERRORS: Error}, tags=["players"])
def players_online(request: HttpRequest) -> list[dict[str, Any]]:
    """Who is in the lobby now (asking counts as being there, as opening the lobby does)."""
    user = user_of(request)
    presence.seen_over_http(user)
    listed = presence.online_players(user.pk)
    return [
        {
            **event_feeds.person_json(other),
            "busy": other.pk in listed.busy,
            "me": other.pk == user.pk,
            "blocked": False,
            "completion": listed.completion.get(other.pk),
        }
        for other in listed.users
    ]


@router.get("/players/{username}", response={200: PlayerProfile, ERRORS: Error}, tags=["players"])
def player(request: HttpRequest, username: str) -> dict[str, Any]:
    """A player's public profile: name, whether they are in the lobby, statistics, the record
    in the lobby and recent lobby matches, your head-to-head record and whether you follow."""
    other = lobby_services.player_named(username)
    viewer = user_of(request)
    hidden = other.pk in presence.hidden_from(viewer.pk)
    return {
        **event_feeds.person_json(other),
        "online": not hidden and presence.is_online(other.pk),
        "stats": player_stats(other),
        "completion": completion.of(other.pk),
        **public_record(viewer, other),
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
    """Challenge a player who is in the lobby. It expires after two minutes unanswered. With
    `days_per_move`, a correspondence challenge: the player need not be online, and it
    waits three days for an answer."""
    user = user_of(request)
    other = lobby_services.player_named(body.to)
    made = lobby_services.challenge(
        user,
        other,
        body.preset,
        body.target,
        body.hints,
        rated=body.rated,
        days_per_move=body.days_per_move,
    )
    return Status(201, _challenge_json(user, made.pk))


@router.get(
    "/challenges/{challenge_id}", response={200: ChallengeOut, ERRORS: Error}, tags=["challenges"]
)
def get_challenge(request: HttpRequest, challenge_id: PathInt) -> dict[str, Any]:
    return _challenge_json(user_of(request), challenge_id)


@router.post(
    "/challenges/{challenge_id}/accept",
    response={201: Started, ERRORS: Error},
    tags=["challenges"],
)
def accept_challenge(request: HttpRequest, challenge_id: PathInt) -> Status:
    """Accept a challenge to you: the match starts (you play second)."""
    user = user_of(request)
    match = lobby_services.accept_challenge(lobby_services.challenge_for(user, challenge_id), user)
    return _started(user, match, challenge_id)


@router.post(
    "/challenges/{challenge_id}/decline",
    response={200: ChallengeOut, ERRORS: Error},
    tags=["challenges"],
)
def decline_challenge(
    request: HttpRequest, challenge_id: PathInt, body: DeclineIn | None = None
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
def accept_counter(request: HttpRequest, challenge_id: PathInt) -> Status:
    """Accept the counter-proposal a challenge of yours was declined with: the match starts
    at once with the proposed rules (the player who proposed them plays first)."""
    user = user_of(request)
    match = lobby_services.accept_counter(lobby_services.challenge_for(user, challenge_id), user)
    return _started(user, match, challenge_id)


def _started(user: Any, match: Match, challenge_id: PathInt) -> Status:
    """The answer to an accepted challenge (or counter-proposal): the match and the challenge."""
    return Status(201, {"match": match.public_id, "challenge": _challenge_json(user, challenge_id)})


@router.post(
    "/challenges/{challenge_id}/cancel",
    response={200: ChallengeOut, ERRORS: Error},
    tags=["challenges"],
)
def cancel_challenge(request: HttpRequest, challenge_id: PathInt) -> dict[str, Any]:
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
    seek = lobby_services.post_seek(
        user, body.preset, body.target, rated=body.rated, days_per_move=body.days_per_move
    )
    return Status(201, _seek_json(lobby_services.seek_for(seek.pk), user))


@router.get("/seeks/{seek_id}", response={200: SeekOut, ERRORS: Error}, tags=["seeks"])
def get_seek(request: HttpRequest, seek_id: PathInt) -> dict[str, Any]:
    user = user_of(request)
    return _seek_json(lobby_services.seek_for(seek_id, viewer=user), user)


@router.post("/seeks/{seek_id}/accept", response={201: Started, ERRORS: Error}, tags=["seeks"])
def accept_seek(request: HttpRequest, seek_id: PathInt) -> Status:
    """Accept a seek: the match starts (the poster plays first). The first accepter wins; later
    ones get 409."""
    user = user_of(request)
    match = lobby_services.accept_seek(lobby_services.seek_for(seek_id), user)
    return Status(
        201, {"match": match.public_id, "seek": _seek_json(lobby_services.seek_for(seek_id), user)}
    )


@router.post("/seeks/{seek_id}/cancel", response={200: SeekOut, ERRORS: Error}, tags=["seeks"])
def cancel_seek(request: HttpRequest, seek_id: PathInt) -> dict[str, Any]:
    user = user_of(request)
    lobby_services.cancel_seek(lobby_services.seek_for(seek_id), user)
    return _seek_json(lobby_services.seek_for(seek_id), user)


# --- Events -------------------------------------------------------------------------------------


@router.get("/events", response={200: EventPage, ERRORS: Error}, tags=["events"])
def list_events(request: HttpRequest, query: Query[EventQuery]) -> dict[str, Any]:
    """Your events after ``since`` (oldest first, at most ``limit``): for clients that poll."""
    user = user_of(request)
    # Polling for events is the player being here, at every table of theirs (as a stream is).
    game_presence.player_active(user.pk)
    event_log.check_since(user.pk, query.since)
    since = event_log.last_seq(user.pk) if query.since is None else query.since
    found = event_log.fetch(user.pk, since, query.limit)
    return {"hello": event_log.hello(user.pk, since), "events": event_log.deliver(user, found)}


def _credential(request: HttpRequest) -> tuple[str, Any]:
    """What the request signed in with: ``("token", id)`` or ``("session", key)``."""
    secret = tokens.bearer(request.headers.get("Authorization"))
    if secret is not None:
        token = tokens.authenticate_request(request, secret)
        return tokens.credential_of(token) if token is not None else ("token", None)
    return ("session", request.session.session_key)


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
                # The schema of one line (each line is one JSON object).
                "content": {"application/x-ndjson": {"schema": event_schema.STREAM_LINE}},
            }
        }
    },
)
async def event_stream(request: HttpRequest, query: Query[StreamQuery]) -> StreamingHttpResponse:
    """Your events as NDJSON, for clients without websockets (``/ws/events/`` is the same)."""
    user = user_of(request)
    await in_thread(event_log.check_since)(user.pk, query.since)
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
