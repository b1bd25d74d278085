"""A rated match's result, applied exactly once, in the transaction that ends the match.

The lobby hears games' ``match_changed`` (``lobby.subscribers``) inside the change's own
transaction. When a rated lobby match ends, ``settle`` locks its ``RatedMatch`` row and, only
while it is still pending, decides what the ending counts for (docs/moderation.md, "Rules of
rated play"):

- restarted by agreement: nothing (the new match, rated in its turn, replaces it);
- ended (resigned, abandoned, won on time) before its first hand was over, or before both
  players made two moves: aborted, and the player who ended it gets an abort (``aborts``);
- the two players' fourth rated result against each other within a day: played casual (the
  farming cap, DAILY_CAP);
- otherwise: both ratings change (Glicko-2, ``glicko.after_match``; a gain against a new
  account within the winner's daily allowance, ``allowance``), a ``RatingChange`` per
  player, and each player's event stream hears "rating".

Two endings of one match cannot both get here (games' door locks the match and refuses the
second), and should the outbox deliver an ending again, the row is no longer pending (and the
unique (match, user) of ``RatingChange`` stands behind that). A rematch or restart of a rated
match is rated too (``carry_over``).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from games import events
from games.events import MatchChanged
from games.models import Action, HandRecord, Match, Seat
from lobby.events import log as event_log

from . import aborts, allowance, glicko
from .models import RatedMatch, Rating, RatingChange
from .reads import forget_leaders

# At most this many rated results between the same two players within CAP_WINDOW.
DAILY_CAP = 3
CAP_WINDOW = timedelta(days=1)
# What a player does at the cards (a seed or "next hand" is no move).
MOVES = frozenset({"draw", "take_upcard", "pass", "discard", "knock", "gin", "big_gin"})
MOVES_TO_RATE = 2
# The endings that leave the match to the other player: the one who gave it up aborted it.
_GIVEN_UP = frozenset({Match.Status.RESIGNED, Match.Status.ABANDONED, Match.Status.TIMED_OUT})


def mark_rated(match: Match, preset: str) -> RatedMatch:
    """In the transaction that starts ``match``: it is played for rating."""
    return RatedMatch.objects.create(match=match, preset=preset)


def on_match_changed(change: MatchChanged, match: Match | None = None) -> None:
    """``match``: the changed match as the door holds it, when it does."""
    if change.kind != Match.Kind.LOBBY:
        return
    if change.reason == events.STARTED:
        carry_over(change.match_id, match)
    elif change.reason == events.ENDED:
        settle(change.match_id)


def carry_over(match_id: int, match: Match | None = None) -> None:
    """A rematch or a restart of a rated match is rated too."""
    if match is not None:
        previous = match.previous_id
    else:
        found = Match.objects.filter(pk=match_id).values_list("previous_id", flat=True)
        previous = found.first()
    if previous is None:
        return
    before = RatedMatch.objects.filter(match_id=previous).first()
    if before is not None:
        RatedMatch.objects.get_or_create(match_id=match_id, defaults={"preset": before.preset})


def settle(match_id: int) -> str | None:
    """Decide and apply what a rated match's ending counts for (see the module); the outcome,
    or None when the match was not rated or was settled before."""
    rated = RatedMatch.objects.select_for_update().filter(match_id=match_id).first()
    if rated is None or rated.outcome != RatedMatch.Outcome.PENDING:
        return None
    match = Match.objects.get(pk=match_id)
    seats = list(Seat.objects.filter(match_id=match_id).order_by("number"))
    users = [s.user_id for s in seats if s.kind == Seat.Kind.PLAYER and s.user_id is not None]
    now = timezone.now()
    if match.status == Match.Status.RESTARTED:
        outcome = RatedMatch.Outcome.RESTARTED
    elif len(users) != 2 or not played_enough(match_id):
        outcome = RatedMatch.Outcome.ABORTED
        _count_abort(match, seats)
    elif _rated_between(users[0], users[1], now) >= DAILY_CAP:
        outcome = RatedMatch.Outcome.CAPPED
    else:
        outcome = RatedMatch.Outcome.RATED
        _apply(match, rated.preset, (users[0], users[1]))
    rated.outcome = outcome
    rated.ended_at = now
    rated.save(update_fields=["outcome", "ended_at"])
    if outcome != RatedMatch.Outcome.RATED:
        _tell_unchanged(match, rated.preset, users, outcome)
    return outcome


def _tell_unchanged(match: Match, preset: str, users: list[int], outcome: str) -> None:
    """The players of a rated match that changed no rating hear so, and why: a "rating" event
    with no change (an app need not wait for one that never comes)."""
    from .outcome import said  # (outcome imports DAILY_CAP from here)

    shown = said(outcome)
    rows = {r.user_id: r for r in Rating.objects.filter(user_id__in=users, preset=preset)}
    entries = []
    for user_id in users:
        row = rows.get(user_id) or Rating(user_id=user_id, preset=preset)
        data = {
            "match": match.public_id,
            "preset": preset,
            "outcome": shown["outcome"],
            "reason": shown["reason"],
            **_standing(row),
            "change": 0,
            "glicko_change": 0,
            "limited": None,
        }
        entries.append(event_log.Entry(user_id, "rating", data))
    event_log.record_all(entries)


def _standing(row: Rating) -> dict[str, Any]:
    return {
        "rating": row.rounded,
        "rd": round(row.rd),
        "provisional": row.provisional,
        "display": row.display,
    }


def played_enough(match_id: int) -> bool:
    """The first hand is over (played out, not resigned: a hand record), and both players
    made MOVES_TO_RATE moves."""
    return HandRecord.objects.filter(match_id=match_id).exists() and _both_played(match_id)


def _count_abort(match: Match, seats: list[Seat]) -> None:
    """The player who gave up an aborted match gets an abort (a restart is nobody's)."""
    if match.status not in _GIVEN_UP or match.winner_seat is None:
        return
    quitter = next((s for s in seats if s.number == 1 - match.winner_seat), None)
    if quitter is not None and quitter.kind == Seat.Kind.PLAYER and quitter.user_id is not None:
        aborts.record(match.pk, quitter.user_id)


def _both_played(match_id: int) -> bool:
    made = [0, 0]
    rows = Action.objects.filter(match_id=match_id).values_list("seat", "payload")
    for seat, payload in rows.iterator():
        if isinstance(payload, dict) and payload.get("type") in MOVES and seat in (0, 1):
            made[seat] += 1
            if min(made) >= MOVES_TO_RATE:
                return True
    return False


def _rated_between(one: int, two: int, now: Any) -> int:
    return RatingChange.objects.filter(
        user_id=one, opponent_id=two, created_at__gte=now - CAP_WINDOW
    ).count()


def _apply(match: Match, preset: str, users: tuple[int, int]) -> None:
    """Both players' ratings after ``match`` (seat 0 is ``users[0]``), stored with their
    changes; their streams hear of it."""
    for user_id in users:
        Rating.objects.get_or_create(user_id=user_id, preset=preset)
    # Every preset's rows of both players, always in this order: the allowance spans the
    # presets, so two results of one player ending at once (correspondence) wait in turn.
    locked = Rating.objects.select_for_update().filter(user_id__in=users)
    rows = {r.user_id: r for r in locked.order_by("user_id", "preset") if r.preset == preset}
    before = {uid: glicko.Glicko(r.rating, r.rd, r.volatility) for uid, r in rows.items()}
    now = timezone.now()
    # Before either row counts this match: "new" is how the account stood when it began.
    new = {uid: allowance.is_new(uid, now) for uid in users}
    changes = []
    for seat, user_id in enumerate(users):
        other = users[1 - seat]
        score = _score(match.winner_seat, seat)
        computed = glicko.after_match(before[user_id], before[other], score)
        changes.append(_store(match, rows[user_id], other, score, computed, new[other], now))
    entries = [
        event_log.Entry(c.user_id, "rating", event_json(c, match, rows[c.user_id])) for c in changes
    ]
    event_log.record_all(entries)
    transaction.on_commit(lambda: forget_leaders(preset))


def _store(
    match: Match,
    row: Rating,
    other: int,
    score: float,
    computed: glicko.Glicko,
    new_opponent: bool,
    now: Any,
) -> RatingChange:
    """One player's rating after ``match`` as Glicko-2 ``computed`` it, its gain limited
    against a new opponent (``allowance``); the change, stored."""
    rating, limited = computed.rating, False
    if new_opponent:
        rating, limited = allowance.limit(row.user_id, row.rating, computed.rating, now)
    before = row.rating
    row.rating, row.rd, row.volatility = rating, computed.rd, computed.volatility
    row.games += 1
    row.save(update_fields=["rating", "rd", "volatility", "games", "updated_at"])
    return RatingChange.objects.create(
        user_id=row.user_id,
        opponent_id=other,
        match=match,
        preset=row.preset,
        score=score,
        before=before,
        after=rating,
        rd_after=computed.rd,
        glicko_after=computed.rating,
        new_opponent=new_opponent,
        limited=RatingChange.Limit.NEW_ACCOUNTS if limited else RatingChange.Limit.NONE,
    )


def _score(winner_seat: int | None, seat: int) -> float:
    if winner_seat is None:
        return 0.5
    return 1.0 if winner_seat == seat else 0.0


def event_json(change: RatingChange, match: Match, rating: Rating) -> dict[str, Any]:
    """A "rating" event's data: which match changed which rating, and by how much (``change``
    applied; ``glicko_change`` computed; ``limited``: why they differ, or None)."""
    return {
        "match": match.public_id,
        "preset": change.preset,
        "outcome": "rated",
        "reason": None,
        **_standing(rating),
        "change": change.delta,
        "glicko_change": change.glicko_delta,
        "limited": change.limited or None,
    }
