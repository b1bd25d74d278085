"""Finding players and following them, in the JSON API: the search, the friends list, follow
and unfollow, and the public record a player's profile (``GET /players/{username}``) carries.

Thin like ``lobby.api.routes``: reads from ``lobby.people.friends`` and ``games.records.public``,
changes through ``lobby.services``; refusals are the services' own, turned into JSON by
``ginsite.api``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from django.http import HttpRequest
from ninja import Field, Query, Router, Schema

from games.bea.limits import client_address
from games.records import public as records
from ginsite.lib import names
from ginsite.lib.apikit import ERRORS, Error, Params, Preset, user_of
from lobby import presence
from lobby import services as lobby_services
from lobby.events import feeds as event_feeds
from lobby.people import friends

router = Router()


class SearchQuery(Params):
    q: str = Field(
        description="The start of a display name: at most 24 characters, at least 2 of them "
        "other than spaces; case, width and look-alike letters do not matter (a Cyrillic а "
        "finds an a).",
        # The whole rule, as the page checks it too (lobby.people.friends), no NUL included: what
        # the schema allows is searched, anything else is 400 malformed.
        max_length=names.MAX_CHARS,
        pattern=friends.QUERY_PATTERN,
    )


class Found(Schema):
    username: str
    display_name: str
    online: bool


class Friend(Schema):
    username: str
    display_name: str
    online: bool
    busy: bool = Field(description="Playing a lobby match right now.")


class Following(Schema):
    username: str
    following: bool


class PresetRecord(Schema):
    preset: Preset
    won: int
    lost: int


class PublicScore(Schema):
    mine: int
    theirs: int


class PublicMatch(Schema):
    """A lobby match of the player's (never a private table, a lesson or Bea)."""

    id: str
    opponent: str
    opponent_username: str | None
    rules: Preset
    target: int
    score: PublicScore = Field(description="`mine` is the profile's player's score.")
    result: Literal["running", "won", "lost"] = Field(description="For the profile's player.")
    status: str
    created_at: datetime


class HeadToHead(Schema):
    won: int = Field(description="Lobby matches you won against this player.")
    lost: int


def public_record(viewer: Any, other: Any) -> dict[str, Any]:
    """What ``GET /players/{username}`` adds about the player's public matches and ``viewer``."""
    hidden = other.pk in presence.hidden_from(viewer.pk)
    me = viewer.pk == other.pk
    return {
        "record": [{k: r[k] for k in ("preset", "won", "lost")} for r in records.record(other)],
        "recent_matches": [row.public_json() for row in records.recent_matches(other, viewer)],
        "head_to_head": None if me else records.head_to_head(viewer, other),
        "following": not me and not hidden and lobby_services.follows(viewer, other),
    }


@router.get("/players", response={200: list[Found], ERRORS: Error}, tags=["players"])
def search_players(request: HttpRequest, query: Query[SearchQuery]) -> list[dict[str, Any]]:
    """Players whose display name starts with `q`, by name, at most 20. A search outside
    the schema's rule is refused (400, nothing found or changed). Searches
    are limited per player and per client address, the pages' searches counted too (429
    `rate_limited` with `Retry-After`)."""
    user = user_of(request)
    found = friends.search(user, query.q, client_address(request))
    online = presence.online_user_ids()
    return [{**event_feeds.person_json(p), "online": p.pk in online} for p in found]


@router.get("/me/friends", response={200: list[Friend], ERRORS: Error}, tags=["players"])
def my_friends(request: HttpRequest) -> list[dict[str, Any]]:
    """The players you follow, online ones first. A block either way hides a follow."""
    rows = friends.friends(user_of(request))
    return [
        {**event_feeds.person_json(r["user"]), "online": r["online"], "busy": r["busy"]}
        for r in rows
    ]


@router.post(
    "/players/{username}/follow", response={200: Following, ERRORS: Error}, tags=["players"]
)
def follow(request: HttpRequest, username: str) -> dict[str, Any]:
    """Follow a player (again changes nothing). Refused (403) where a block stands between you."""
    other = lobby_services.player_named(username)
    lobby_services.follow(user_of(request), other)
    return {"username": other.get_username(), "following": True}


@router.delete(
    "/players/{username}/follow", response={200: Following, ERRORS: Error}, tags=["players"]
)
def unfollow(request: HttpRequest, username: str) -> dict[str, Any]:
    """Stop following a player (not following changes nothing)."""
    other = lobby_services.player_named(username)
    lobby_services.unfollow(user_of(request), other)
    return {"username": other.get_username(), "following": False}
