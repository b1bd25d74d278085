"""A player's matches, newest first, a page at a time: the profile's list and the API's.

One row per match the player holds a seat in by their account (a guest's matches join once
adopted at sign-up): the opponent, the rules, the score, the result and the date. No cards.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.core.paginator import Page, Paginator
from django.urls import reverse

from games.labels import PRESET_NAMES
from games.models import Match, Seat
from ginsite.lib import numbers

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

PAGE_SIZE = 20


@dataclass(frozen=True)
class Row:
    match: Match
    seat: int
    opponent: str
    opponent_username: str | None
    preset: str
    preset_label: str
    target: int
    mine: int
    theirs: int
    # "running", "won" or "lost".
    result: str
    # How it ended (Match.Status): finished, resigned, abandoned, timed_out; active if running.
    status: str
    date: datetime
    # The hands that are over, each with its replay (games.records.replays).
    hands: tuple[int, ...] = ()

    @property
    def replays(self) -> list[dict[str, Any]]:
        return [
            {"number": n, "url": reverse("games:replay", args=[self.match.public_id, n])}
            for n in self.hands
        ]

    @property
    def public_id(self) -> str:
        return self.match.public_id

    @property
    def url(self) -> str:
        return reverse("games:table", args=[self.match.public_id])

    def as_json(self) -> dict[str, Any]:
        return {
            "id": self.match.public_id,
            "kind": self.match.kind,
            "opponent": self.opponent,
            "opponent_username": self.opponent_username,
            "rules": self.preset,
            "target": self.target,
            "score": {"mine": self.mine, "theirs": self.theirs},
            "result": self.result,
            "status": self.status,
            "created_at": self.match.created_at,
            "finished_at": self.match.finished_at,
            "url": self.url,
        }

    def public_json(self) -> dict[str, Any]:
        """The row as anyone may read it on the player's page (``games.records.public``):
        without the kind of match, when it ended, or its table's address."""
        answer = self.as_json()
        return {key: value for key, value in answer.items() if key in PUBLIC_FIELDS}


# What a player's page shows of each of their matches (``games.records.public``).
PUBLIC_FIELDS = (
    "id",
    "opponent",
    "opponent_username",
    "rules",
    "target",
    "score",
    "result",
    "status",
    "created_at",
)


def matches_of(user: AbstractBaseUser) -> Any:
    """The player's matches, newest first; a restarted match (replaced by agreement, counting
    for nobody) is left out, the one that replaced it is there."""
    return (
        Match.objects.filter(seats__user=user, seats__kind=Seat.Kind.PLAYER)
        .exclude(status=Match.Status.RESTARTED)
        .prefetch_related("seats__user__profile", "hand_records")
        .distinct()
        .order_by("-created_at", "-pk")
    )


def row_of(match: Match, user_id: int, *, hands: bool = True) -> Row:
    """The match as a row of the player's (``user_id``) list: its seats (with their players)
    read already, and its hand records too when ``hands`` (the replays' links)."""
    seats = {s.number: s for s in match.seats.all()}
    seat = next(n for n, s in seats.items() if s.user_id == user_id and s.kind == Seat.Kind.PLAYER)
    other = seats[1 - seat]
    scores = list(match.scores or [0, 0])
    result = "running" if match.is_active else "won" if match.winner_seat == seat else "lost"
    preset = str(match.rules.get("name", ""))
    return Row(
        match=match,
        seat=seat,
        opponent=other.display_name,
        opponent_username=other.user.get_username() if other.user is not None else None,
        preset=preset,
        preset_label=str(PRESET_NAMES.get(preset, preset)),
        target=int(match.rules.get("target", 0)),
        mine=scores[seat],
        theirs=scores[1 - seat],
        result=result,
        status=match.status,
        date=match.created_at,
        hands=tuple(sorted(r.hand_number for r in match.hand_records.all())) if hands else (),
    )


def page_of(
    user: AbstractBaseUser, number: Any, per_page: int = PAGE_SIZE
) -> tuple[Page, list[Row]]:  # type: ignore[type-arg]
    """One page of the player's matches (a bad or too high number gives the nearest page)."""
    page = Paginator(matches_of(user), per_page).get_page(numbers.parse(number, low=1) or 1)
    return page, [row_of(m, user.pk) for m in page.object_list]
