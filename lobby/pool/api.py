"""Quick pairing in the JSON API: join the pool, see your place in it, leave it.

Thin, like the lobby's pages: one action of ``lobby.pool.service`` and an answer. When a
player is paired, both hear a "paired" event on their event stream with the match to go to.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from django.http import HttpRequest
from django.utils import timezone
from ninja import Field, Router, Schema, Status

from ginsite.lib.apikit import ERRORS, Body, DaysPerMove, Error, Preset, Target, user_of
from lobby.api.schemas import Person
from lobby.events.feeds import person_json
from lobby.models import PoolEntry
from lobby.pool import pairs as pool_pairs
from lobby.pool import service as pool_service

router = Router()


class PoolIn(Body):
    preset: Preset = "standard"
    target: Target = 100
    rated: bool = Field(False, description="Play for rating; false: casual.")
    allow_bots: bool = Field(
        False, description="May be paired with an account that plays through a bot."
    )
    days_per_move: DaysPerMove | None = Field(
        None,
        description="A correspondence match (1, 3 or 7 days per move), paired only with "
        "players who chose the same; null or left out: live.",
    )


class PoolOut(Schema):
    status: Literal["waiting", "paired", "cancelled", "none"] = Field(
        description="`none`: you have never joined the pool."
    )
    preset: Preset | None = None
    target: int | None = None
    rated: bool = False
    allow_bots: bool = False
    days_per_move: int | None = None
    joined_at: datetime | None = None
    waited_seconds: int = 0
    window: int | None = Field(
        None,
        description=(
            f"While waiting: you are paired with a rating within +- this of yours (it grows "
            f"from {pool_pairs.WINDOW_START} to {pool_pairs.WINDOW_MAX} over "
            f"{int(pool_pairs.WIDEN_OVER.total_seconds())} seconds)."
        ),
    )
    match: str | None = Field(None, description="Once paired: the match (`GET /matches/{match}`).")
    opponent: Person | None = None


def pool_json(entry: PoolEntry | None) -> dict[str, Any]:
    if entry is None:
        return {"status": "none"}
    now = timezone.now()
    waiting = entry.status == PoolEntry.Status.WAITING
    return {
        "status": entry.status,
        "preset": entry.preset,
        "target": entry.target,
        "rated": entry.rated,
        "allow_bots": entry.allow_bots,
        "days_per_move": entry.days_per_move,
        "joined_at": entry.joined_at,
        "waited_seconds": max(0, int(((entry.ended_at or now) - entry.joined_at).total_seconds())),
        "window": pool_pairs.window(entry.joined_at, now) if waiting else None,
        "match": entry.match.public_id if entry.match_id and entry.match else None,
        "opponent": person_json(entry.opponent) if entry.opponent_id and entry.opponent else None,
    }


@router.post("/pool", response={201: PoolOut, ERRORS: Error}, tags=["pool"])
def join(request: HttpRequest, body: PoolIn) -> Status:
    """Wait for an opponent of a rating near yours ("Play now"). You may be paired at once
    (`status` "paired"); else a "paired" event comes when you are. 409 when you are waiting
    already or playing a lobby match."""
    entry = pool_service.join_pool(
        user_of(request),
        body.preset,
        body.target,
        rated=body.rated,
        allow_bots=body.allow_bots,
        days_per_move=body.days_per_move,
    )
    return Status(201, pool_json(entry))


@router.get("/pool", response={200: PoolOut, ERRORS: Error}, tags=["pool"])
def mine(request: HttpRequest) -> dict[str, Any]:
    """Your place in the pool, or what became of your last one."""
    return pool_json(pool_service.last_entry(user_of(request)))


@router.delete("/pool", response={200: PoolOut, ERRORS: Error}, tags=["pool"])
def leave(request: HttpRequest) -> dict[str, Any]:
    """Stop waiting. 409 when you are not waiting (paired meanwhile: see `match`)."""
    user = user_of(request)
    pool_service.leave_pool(user)
    return pool_json(pool_service.last_entry(user))
