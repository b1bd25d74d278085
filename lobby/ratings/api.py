"""Ratings in the JSON API: a player's ratings with their history, and the leaderboards."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.http import HttpRequest
from ninja import Field, Query, Router, Schema

from ginsite.apikit import ERRORS, Error, Params, Preset, user_of
from lobby import services as lobby_services
from lobby.models import display_name_of

from .reads import LEADERS, MIN_RECENT, PAGE, history, leaders_page, ratings_of

router = Router()


class Point(Schema):
    at: datetime
    rating: int = Field(description="The rating after this rated result.")
    change: int
    score: float = Field(description="1 won, 0 lost.")
    opponent: str | None = Field(description="The opponent's username.")
    match: str


class PresetRating(Schema):
    preset: Preset
    rating: int
    rd: int = Field(description="The rating deviation (Glicko-2); starts at 350.")
    provisional: bool = Field(description="The deviation is 110 or more: shown as 1500?.")
    display: str = Field(description='As the site shows it: "1532", or "1500?" if provisional.')
    games: int = Field(description="Rated matches played in this preset.")
    history: list[Point] = Field(description="Every rated result in this preset, oldest first.")


class Ratings(Schema):
    username: str
    display_name: str
    ratings: list[PresetRating]


class Leader(Schema):
    rank: int
    username: str
    display_name: str
    rating: int
    rd: int
    recent: int = Field(description="Rated matches in this preset in the last 30 days.")


class Leaderboard(Schema):
    preset: Preset
    page: int
    pages: int
    players: list[Leader]


class PageQuery(Params):
    page: int = Field(1, ge=1, le=100)


def ratings_json(user: Any) -> dict[str, Any]:
    shown = ratings_of(user)
    return {
        "username": user.get_username(),
        "display_name": display_name_of(user),
        "ratings": [
            {
                "preset": preset,
                "rating": r.rounded,
                "rd": round(r.rd),
                "provisional": r.provisional,
                "display": r.display,
                "games": r.games,
                "history": [_point(c) for c in history(user, preset)],
            }
            for preset, r in shown.items()
        ],
    }


def _point(change: Any) -> dict[str, Any]:
    return {
        "at": change.created_at,
        "rating": round(change.after),
        "change": change.delta,
        "score": change.score,
        "opponent": change.opponent.get_username() if change.opponent else None,
        "match": change.match.public_id,
    }


@router.get("/me/ratings", response={200: Ratings, ERRORS: Error}, tags=["ratings"])
def my_ratings(request: HttpRequest) -> dict[str, Any]:
    """Your rating in each preset, with every rated result (the profile's chart)."""
    return ratings_json(user_of(request))


@router.get("/players/{username}/ratings", response={200: Ratings, ERRORS: Error}, tags=["ratings"])
def player_ratings(request: HttpRequest, username: str) -> dict[str, Any]:
    """A player's rating in each preset (standard, classic, simple), with its history."""
    user_of(request)
    return ratings_json(lobby_services.player_named(username))


_BOARD = (
    f"The top {LEADERS} of a preset by rating, {PAGE} a page: players with a deviation below "
    f"110 and at least {MIN_RECENT} rated matches in the preset in the last 30 days. A page "
    "past the last is empty."
)


@router.get(
    "/leaderboards/{preset}",
    response={200: Leaderboard, ERRORS: Error},
    tags=["ratings"],
    description=_BOARD,
)
def leaderboard(request: HttpRequest, preset: Preset, query: Query[PageQuery]) -> dict[str, Any]:
    user_of(request)
    rows, pages = leaders_page(preset, query.page)
    return {"preset": preset, "page": query.page, "pages": pages, "players": rows}
