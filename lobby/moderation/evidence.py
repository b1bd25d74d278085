"""What a moderator sees of a player and their matches: read only, for the moderators' page.

A match row says when it was played, against whom (and whether that account was new then),
how long it lasted, how many moves each made, how it ended, what it was rated as (rated,
aborted, casual over the daily cap, restarted) and how it changed both ratings. The account
says how old it is, the address it signed up from and the other accounts made from it, and
the player's reports filed and received.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Count, Q
from django.utils import timezone

from games.models import Action, Match, Seat
from lobby.accounts.emails import has_verified_email
from lobby.ratings.models import Abort, RatedMatch, RatingChange
from lobby.ratings.results import MOVES

from .models import Report, SignupAddress

# An account younger than this when a match was played counts as new there.
NEW_ACCOUNT_DAYS = 7
ABORT_DAYS = 30
ROWS = 30


@dataclass(frozen=True)
class MatchRow:
    public_id: str
    created_at: datetime
    duration: str  # "0:04:31" from the start to the end; "" while it runs
    status: str  # how it ended (Match.Status's label)
    rated: str  # the RatedMatch outcome's value ("" for a casual match)
    rated_label: str
    opponent: Any
    opponent_new: bool
    result: str  # "won", "lost", "running" or "" (no winner) for the row's player
    moves: tuple[int, int]  # the row's player's, the opponent's
    change: str  # the row's player's rating change, "" for none
    opponent_change: str


def abort_counts(days: int = ABORT_DAYS, user_ids: Iterable[int] | None = None) -> dict[int, int]:
    """How many rated matches each player aborted (ended before the first hand was over, by
    resigning, walking out or letting the time run: ``lobby.ratings.aborts``) in the last
    ``days`` days: of the players ``user_ids``, or of everyone who aborted any (``None``)."""
    since = timezone.now() - timedelta(days=days)
    found = Abort.objects.filter(created_at__gte=since)
    if user_ids is not None:
        found = found.filter(user_id__in=list(user_ids))
    counted = found.values("user_id").annotate(n=Count("pk"))
    return {row["user_id"]: row["n"] for row in counted.order_by()}


def matches_between(one: Any, two: Any, limit: int = ROWS) -> list[MatchRow]:
    """The matches ``one`` and ``two`` played against each other, newest first, as ``one``."""
    found = Match.objects.filter(seats__user=one).filter(seats__user=two)
    return rows_for(one, found.order_by("-created_at")[:limit])


def recent_rated(user: Any, limit: int = ROWS) -> list[MatchRow]:
    """The player's latest rated matches (aborted ones included), newest first."""
    found = Match.objects.filter(seats__user=user, rated__isnull=False)
    return rows_for(user, found.order_by("-created_at")[:limit])


def rows_for(user: Any, matches: Any) -> list[MatchRow]:
    """``matches`` as rows seen from ``user``'s seat, in the order given."""
    listed = list(matches.select_related("rated").prefetch_related("seats__user__profile"))
    ids = [m.pk for m in listed]
    changes = {(c.match_id, c.user_id): c for c in RatingChange.objects.filter(match_id__in=ids)}
    moves: dict[tuple[int, int], int] = {}
    counted = (
        Action.objects.filter(match_id__in=ids, payload__type__in=sorted(MOVES))
        .values("match_id", "seat")
        .annotate(n=Count("pk"))
    )
    for row in counted:
        moves[(row["match_id"], row["seat"])] = row["n"]
    return [_row(user, m, changes, moves) for m in listed]


def _row(
    user: Any,
    match: Match,
    changes: dict[tuple[int, int], RatingChange],
    moves: dict[tuple[int, int], int],
) -> MatchRow:
    seats = {s.number: s for s in match.seats.all()}
    mine = next((n for n, s in seats.items() if s.user_id == user.pk), 0)
    other: Seat | None = seats.get(1 - mine)
    opponent = other.user if other is not None else None
    rated = _rated(match)
    return MatchRow(
        public_id=match.public_id,
        created_at=match.created_at,
        duration=_clock(match.finished_at - match.created_at) if match.finished_at else "",
        status=match.get_status_display(),
        rated=rated.outcome if rated is not None else "",
        rated_label=rated.get_outcome_display() if rated is not None else "",
        opponent=opponent,
        opponent_new=opponent is not None
        and opponent.date_joined > match.created_at - timedelta(days=NEW_ACCOUNT_DAYS),
        result=_result(match, mine),
        moves=(moves.get((match.pk, mine), 0), moves.get((match.pk, 1 - mine), 0)),
        change=_signed(changes.get((match.pk, user.pk))),
        opponent_change=_signed(changes.get((match.pk, opponent.pk))) if opponent else "",
    )


def _rated(match: Match) -> RatedMatch | None:
    try:
        return match.rated  # type: ignore[no-any-return]
    except RatedMatch.DoesNotExist:
        return None


def _clock(length: timedelta) -> str:
    seconds = max(0, int(length.total_seconds()))
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def _result(match: Match, seat: int) -> str:
    if match.is_active:
        return "running"
    if match.winner_seat is None:
        return ""
    return "won" if match.winner_seat == seat else "lost"


def _signed(change: RatingChange | None) -> str:
    return change.signed if change is not None else ""


# --- Accounts ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Account:
    user: Any
    age: timedelta
    verified: bool
    address: str  # "" when none is stored (made before it was, or forgotten since)
    same_address: list[Any]  # other accounts that signed up from it, newest first
    reports_received: int
    reports_open: int
    reports_filed: int
    reports_filed_open: int
    aborts: int


def account(user: Any) -> Account:
    signup = SignupAddress.objects.filter(user_id=user.pk).first()
    same: list[Any] = []
    if signup is not None:
        others = SignupAddress.objects.filter(address=signup.address).exclude(user_id=user.pk)
        ids = list(others.order_by("-created_at").values_list("user_id", flat=True)[:10])
        same = list(get_user_model().objects.filter(pk__in=ids).order_by("-date_joined"))
    received = Report.objects.filter(reported=user).aggregate(
        n=Count("pk"), open=Count("pk", filter=Q(status=Report.Status.OPEN))
    )
    filed = Report.objects.filter(reporter=user).aggregate(
        n=Count("pk"), open=Count("pk", filter=Q(status=Report.Status.OPEN))
    )
    return Account(
        user=user,
        age=timezone.now() - user.date_joined,
        verified=has_verified_email(user.pk),
        address=signup.address if signup is not None else "",
        same_address=same,
        reports_received=received["n"],
        reports_open=received["open"],
        reports_filed=filed["n"],
        reports_filed_open=filed["open"],
        aborts=abort_counts(ABORT_DAYS, [user.pk]).get(user.pk, 0),
    )
