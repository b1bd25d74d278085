"""Arenas in the JSON API: the list, one arena with its standings, making a private one,
joining, pausing and leaving. Thin, like the pages: one call into ``service`` or ``schedule``
and an answer. When a player is paired, they hear a "paired" event (with ``arena``) on their
event stream; when an arena they joined starts or is over, an "arena" event."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from django.http import HttpRequest
from django.utils import timezone
from ninja import Field, Router, Schema, Status
from pydantic import BeforeValidator

from ginsite.lib.apikit import ERRORS, Body, Error, Preset, Target, user_of
from lobby.api.schemas import Person

from . import schedule, service
from .models import Arena

router = Router()

Phase = Literal["upcoming", "running", "ending", "over"]


class StandingOut(Schema):
    rank: int
    player: Person
    points: int
    streak: int = Field(description="Wins in a row now; from 2 on, the next win counts double.")
    games: int
    wins: int
    performance: int | None = Field(None, description="None before a counted game.")
    paused: bool
    playing: str | None = Field(None, description="The match the player is playing now.")


class PlaceOut(Schema):
    rank: int | None = Field(None, description="None while your points are not counted.")
    points: int
    streak: int
    paused: bool
    playing: str | None = Field(None, description="Your match in this arena now, if any.")


class ArenaOut(Schema):
    id: str
    name: str
    kind: Literal["scheduled", "private"]
    preset: Preset
    target: int
    rated: bool
    allow_bots: bool
    starts_at: datetime
    ends_at: datetime
    phase: Phase = Field(
        description="`ending`: time is up and matches started before the end are played out."
    )
    seconds_left: int = Field(description="Until the start (upcoming) or the end (running).")
    players: int
    me: PlaceOut | None = Field(None, description="Your place, when you joined.")


class ArenaDetail(ArenaOut):
    standings: list[StandingOut] = Field(description="The first 100 places.")


def _whole(value: Any) -> Any:
    """JSON's 30.0 is the integer 30 (as JSON Schema says); 30.5, "30" and true are not."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


# Something besides blanks (as the site reads blanks: Python's, which JSON Schema's \s lacks
# a few of) and no NUL.
NAME_PATTERN = r"^[^\x00]*[^\s\x00\x1c-\x1f\x85][^\x00]*$"


class ArenaIn(Body):
    name: str = Field(max_length=schedule.NAME_MAX, pattern=NAME_PATTERN)
    preset: Preset = "standard"
    target: Target = 50
    minutes: Annotated[Literal[20, 30, 45, 60, 90], BeforeValidator(_whole)] = 30
    starts_in: Annotated[int, BeforeValidator(_whole)] = Field(
        5, ge=0, le=7 * 24 * 60, description="Minutes from now."
    )
    rated: bool = False
    allow_bots: bool = False


def arena_json(
    arena: Arena, user: Any, board: list[service.Standing] | None = None
) -> dict[str, Any]:
    now = timezone.now()
    phase = service.phase(arena, now)
    until = arena.starts_at if phase == service.UPCOMING else arena.ends_at
    board = service.standings(arena) if board is None else board
    place = service.place_of(user, arena)
    me = None
    if place is not None:
        rank = next((s.rank for s in board if s.player.pk == place.pk), None)
        playing = service.playing_now(arena, user.pk)
        me = {
            "rank": rank,
            "points": place.points,
            "streak": place.streak,
            "paused": place.paused,
            "playing": playing.public_id if playing is not None else None,
        }
    return {
        "id": arena.public_id,
        "name": schedule.title(arena),
        "kind": arena.kind,
        "preset": arena.preset,
        "target": arena.target,
        "rated": arena.rated,
        "allow_bots": arena.allow_bots,
        "starts_at": arena.starts_at,
        "ends_at": arena.ends_at,
        "phase": phase,
        "seconds_left": max(0, int((until - now).total_seconds()))
        if phase in ("upcoming", "running")
        else 0,
        "players": len(board),
        "me": me,
    }


def standings_json(arena: Arena, board: list[service.Standing]) -> list[dict[str, Any]]:
    playing = {}
    for played in service.running_matches(arena):
        playing[played.first_id] = playing[played.second_id] = played.match.public_id
    return [
        {
            "rank": s.rank,
            "player": {"username": s.username, "display_name": s.name},
            "points": s.points,
            "streak": s.streak,
            "games": s.player.games,
            "wins": s.player.wins,
            "performance": s.performance,
            "paused": s.player.paused,
            "playing": playing.get(s.player.user_id),
        }
        for s in board[:100]
    ]


def detail(arena: Arena, user: Any) -> dict[str, Any]:
    board = service.standings(arena)
    return {**arena_json(arena, user, board), "standings": standings_json(arena, board)}


@router.get("/arenas", response={200: list[ArenaOut], ERRORS: Error}, tags=["arenas"])
def arenas(request: HttpRequest) -> list[dict[str, Any]]:
    """The site's arenas running or still to come, soonest first (private arenas are reached
    by their id alone)."""
    user = user_of(request)
    return [arena_json(a, user) for a in service.listed(limit=20)]


@router.post("/arenas", response={201: ArenaDetail, ERRORS: Error}, tags=["arenas"])
def create(request: HttpRequest, body: ArenaIn) -> Status:
    """Make a private arena; its id is the invitation (`/arenas/{id}/` on the site). 429 past
    3 arenas not yet over or 10 a day; 403 for a rated one when you may not play rated."""
    made = schedule.create_private(
        user_of(request),
        body.name,
        body.preset,
        body.target,
        minutes=body.minutes,
        starts_in=body.starts_in,
        rated=body.rated,
        allow_bots=body.allow_bots,
    )
    return Status(201, detail(made, user_of(request)))


@router.get("/arenas/{arena_id}", response={200: ArenaDetail, ERRORS: Error}, tags=["arenas"])
def one(request: HttpRequest, arena_id: str) -> dict[str, Any]:
    """An arena with its standings (the first 100 places) and your place."""
    return detail(service.find(arena_id), user_of(request))


@router.get(
    "/arenas/{arena_id}/standings",
    response={200: list[StandingOut], ERRORS: Error},
    tags=["arenas"],
)
def standings(request: HttpRequest, arena_id: str) -> list[dict[str, Any]]:
    """The standings: rank, points, streak, performance, who is playing which match."""
    arena = service.find(arena_id)
    return standings_json(arena, service.standings(arena))


@router.post("/arenas/{arena_id}/join", response={200: ArenaOut, ERRORS: Error}, tags=["arenas"])
def join(request: HttpRequest, arena_id: str) -> dict[str, Any]:
    """Join, or come back after a pause. Paired at once when the arena runs and someone fits
    (`me.playing`), else a `paired` event comes when you are. 409 once it is over; 403 for a
    bot where bots may not play, or rated play's entry rules in a rated arena."""
    arena = service.find(arena_id)
    service.join(user_of(request), arena)
    return arena_json(arena, user_of(request))


@router.post("/arenas/{arena_id}/pause", response={200: ArenaOut, ERRORS: Error}, tags=["arenas"])
def pause(request: HttpRequest, arena_id: str) -> dict[str, Any]:
    """Stop being paired (a match being played goes on and counts). 409 when paused already
    or not in the arena."""
    arena = service.find(arena_id)
    service.pause(user_of(request), arena)
    return arena_json(arena, user_of(request))


@router.post("/arenas/{arena_id}/leave", response={200: ArenaOut, ERRORS: Error}, tags=["arenas"])
def leave(request: HttpRequest, arena_id: str) -> dict[str, Any]:
    """Give up your place: before the start it is gone; once the arena runs your points stay
    and you are paused. 409 when you are not in it."""
    arena = service.find(arena_id)
    service.leave(user_of(request), arena)
    return arena_json(arena, user_of(request))
