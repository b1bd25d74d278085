"""Ratings in the JSON API: a player's ratings with their history, and the leaderboards."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from django.http import HttpRequest
from django.utils import timezone
from ninja import Field, Query, Router, Schema

from ginsite.lib.apikit import ERRORS, Error, Params, Preset, user_of
from lobby import services as lobby_services
from lobby.models import display_name_of

from . import aborts, eligibility
from .glicko import PROVISIONAL_RD
from .reads import LEADERS, MIN_RECENT, PAGE, history, leaders_page, ratings_of

router = Router()


class Point(Schema):
    at: datetime
    kind: Literal["result", "refund"] = Field(
        description="A rated result, or a refund: points given back when a moderator closed "
        "an account for rating abuse (docs/moderation.md)."
    )
    rating: int = Field(description="The rating after this rated result (or refund).")
    rd: int | None = Field(
        description="The rating deviation after this result (null for a refund)."
    )
    provisional: bool | None = Field(
        description="Provisional after this result (deviation 110 or more, before rounding); "
        "null for a refund."
    )
    change: int = Field(description="By how much the rating changed.")
    glicko_change: int = Field(
        description="By how much Glicko-2 would have changed it: more than change when the "
        "gain was limited (for a refund, the same as change)."
    )
    limited: Literal["new_accounts"] | None = Field(
        description='Why the gain was limited: "new_accounts" (the daily allowance for wins '
        "against new accounts was used up), or null."
    )
    score: float | None = Field(description="1 won, 0 lost; null for a refund.")
    opponent: str | None = Field(
        description="The opponent's username (for a refund, the closed account's)."
    )
    match: str | None = Field(description="The match; null for a refund.")


class PresetRating(Schema):
    preset: Preset
    rating: int
    rd: int = Field(description="The rating deviation (Glicko-2), rounded; starts at 350.")
    provisional: bool = Field(
        description="The deviation is 110 or more (before rounding: 109.6 is shown as rd 110 "
        "and is not provisional): shown as 1500?."
    )
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
    provisional: bool = Field(
        description="Always false here: the board lists established players only."
    )
    display: str = Field(description='As the site shows it: "1532".')
    recent: int = Field(description="Rated matches in this preset in the last 30 days.")
    bot: bool = Field(description="Plays through a bot: the site shows a BOT badge.")


class Leaderboard(Schema):
    preset: Preset
    page: int
    pages: int
    players: list[Leader]


class LobbyWait(Schema):
    until: datetime = Field(description="When you may start a lobby match again.")
    aborts: int = Field(description="Your aborts in the last 24 hours.")
    message: str = Field(description="What the lobby says about it.")


class Standing(Schema):
    """What ``GET /me`` says of the rules of rated play for you now."""

    rated_play: str | None = Field(
        description="Why you may not play rated now (no verified e-mail address, an account "
        "too new: when), or null when you may."
    )
    lobby_wait: LobbyWait | None = Field(
        description="After 3 or more aborts in 24 hours: the wait before your next lobby "
        "match (every lobby door answers 429 abort_wait until then); null when none."
    )


def standing_json(user: Any) -> dict[str, Any]:
    """The ``Standing`` of ``user``: may they play rated, and must they wait."""
    now = timezone.now()
    wait = aborts.wait_of(user.pk, now)
    return {
        "rated_play": eligibility.why_not_rated(user.pk),
        "lobby_wait": None
        if wait is None
        else {"until": wait.until, "aborts": wait.aborts, "message": wait.message(now)},
    }


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
        "kind": getattr(change, "kind", "result"),
        "rating": round(change.after),
        "rd": round(change.rd_after) if hasattr(change, "rd_after") else None,
        "provisional": change.rd_after >= PROVISIONAL_RD if hasattr(change, "rd_after") else None,
        "change": change.delta,
        "glicko_change": change.glicko_delta,
        "limited": change.limited or None,
        "score": change.score,
        "opponent": change.opponent.get_username() if change.opponent else None,
        "match": change.match.public_id if change.match else None,
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
