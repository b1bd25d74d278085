"""Suspicious patterns, so that a moderator need not wait for a report: computed on demand
(a button on the moderators' page) and nightly (``manage.py find_suspicious``, from cron).

Each run looks at the last WINDOW_DAYS days and replaces the rows of the run before
(``Suspicion``); each row names a player, how often they showed the pattern, and the accounts
and matches behind it, and the page links it to the player's evidence:

- many rated wins against new accounts: at least NEW_ACCOUNT_WINS wins over accounts younger
  than ``evidence.NEW_ACCOUNT_DAYS`` when the match was played (a farm of throw-away accounts);
- wins by resignation within a few moves: at least QUICK_RESIGNATIONS rated matches the
  opponent resigned before the two had made QUICK_MOVES moves at the cards together in the
  hand then in play (a match resigned in its first hand is aborted, not rated, so a farm now
  plays one hand out and resigns as the next is dealt);
- many aborts: at least MANY_ABORTS aborted rated matches (``evidence.abort_counts``).
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from games.models import Action, Match, Seat
from lobby.ratings.models import RatedMatch, RatingChange
from lobby.ratings.results import MOVES

from .evidence import NEW_ACCOUNT_DAYS, abort_counts
from .models import Suspicion

WINDOW_DAYS = 7
NEW_ACCOUNT_WINS = 5
QUICK_MOVES = 6
QUICK_RESIGNATIONS = 3
MANY_ABORTS = 5
# At most this many accounts and matches kept with a row, as examples.
EXAMPLES = 10

Pattern = Suspicion.Pattern


def find(now: datetime | None = None) -> list[Suspicion]:
    """Run every pattern over the last WINDOW_DAYS days; the new rows (the old are gone)."""
    now = now or timezone.now()
    since = now - timedelta(days=WINDOW_DAYS)
    rows = [
        *_new_account_wins(since, now),
        *_quick_resignations(since, now),
        *_many_aborts(now),
    ]
    with transaction.atomic():
        Suspicion.objects.all().delete()
        Suspicion.objects.bulk_create(rows)
    return rows


def latest() -> tuple[datetime | None, list[Suspicion]]:
    """The last run's time and rows (no time: never run)."""
    rows = list(Suspicion.objects.select_related("user__profile"))
    return (rows[0].found_at if rows else None), rows


def _new_account_wins(since: datetime, now: datetime) -> list[Suspicion]:
    young = timedelta(days=NEW_ACCOUNT_DAYS)
    wins = RatingChange.objects.filter(
        score=1.0, created_at__gte=since, opponent__date_joined__gt=F("created_at") - young
    )
    by_player: dict[int, list[tuple[str, str]]] = defaultdict(list)
    rows = wins.values_list("user_id", "opponent__username", "match__public_id")
    for user_id, opponent, match in rows.order_by("-created_at"):
        by_player[user_id].append((opponent, match))
    return [
        _row(Pattern.NEW_ACCOUNT_WINS, user_id, found, now)
        for user_id, found in by_player.items()
        if len(found) >= NEW_ACCOUNT_WINS
    ]


def _quick_resignations(since: datetime, now: datetime) -> list[Suspicion]:
    resigned = Match.objects.filter(
        status=Match.Status.RESIGNED, finished_at__gte=since, rated__isnull=False
    ).exclude(rated__outcome=RatedMatch.Outcome.RESTARTED)
    ended = dict(resigned.values_list("pk", "winner_seat"))
    made = _moves_in_last_hand(list(ended))
    quick = [pk for pk in ended if made.get(pk, 0) < QUICK_MOVES]
    seats = Seat.objects.filter(match_id__in=quick, user_id__isnull=False)
    by_player: dict[int, list[tuple[str, str]]] = defaultdict(list)
    players = seats.values_list("match_id", "number", "user_id", "user__username")
    at: dict[int, dict[int, tuple[int, str]]] = defaultdict(dict)
    for match_id, number, user_id, username in players:
        at[match_id][number] = (user_id, username)
    public = dict(Match.objects.filter(pk__in=quick).values_list("pk", "public_id"))
    for match_id, seated in at.items():
        winner = ended[match_id]
        if winner in seated and (1 - winner) in seated:
            by_player[seated[winner][0]].append((seated[1 - winner][1], public[match_id]))
    return [
        _row(Pattern.QUICK_RESIGNATIONS, user_id, found, now)
        for user_id, found in by_player.items()
        if len(found) >= QUICK_RESIGNATIONS
    ]


def _moves_in_last_hand(match_ids: list[int]) -> dict[int, int]:
    """For each match, the moves at the cards made since its last hand was dealt."""
    made: dict[int, int] = defaultdict(int)
    kinds = sorted(MOVES | {"next_hand"})
    actions = Action.objects.filter(match_id__in=match_ids, payload__type__in=kinds)
    for match_id, kind in actions.order_by("match_id", "seq").values_list(
        "match_id", "payload__type"
    ):
        made[match_id] = 0 if kind == "next_hand" else made[match_id] + 1
    return made


def _many_aborts(now: datetime) -> list[Suspicion]:
    counts = abort_counts(WINDOW_DAYS)
    return [
        Suspicion(pattern=Pattern.MANY_ABORTS, user_id=user_id, count=n, details={}, found_at=now)
        for user_id, n in counts.items()
        if n >= MANY_ABORTS
    ]


def _row(pattern: str, user_id: int, found: list[tuple[str, str]], now: datetime) -> Suspicion:
    """A row for ``found`` (the other account and the match of each time, newest first)."""
    details: dict[str, Any] = {
        "accounts": sorted({name for name, _match in found})[:EXAMPLES],
        "matches": [match for _name, match in found[:EXAMPLES]],
    }
    return Suspicion(
        pattern=pattern, user_id=user_id, count=len(found), details=details, found_at=now
    )
