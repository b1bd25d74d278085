"""Quick pairing ("Play now"): a player joins the pool for one preset and target, rated or
casual, and the server seats them with the waiting player of the nearest rating.

The window of ratings a player is paired within widens while they wait (``window``); two
players are paired when their ratings are within the wider of their two windows (the one who
has waited longer asked for that much). Never two players where either blocked the other; a
bot with a human only when the human's tile allows bots; not the one you were paired with
last time while someone else waits for the same game.

Exactly once: a pair is seated in one transaction that takes the two players' rows
(``lock_players``, the order every lobby change takes them in; SQLite transactions here take the
write lock when they begin), re-reads both entries and only then seats them; a pass that
picked a player someone else seated meanwhile finds their entry paired and leaves them. The
sweep's full passes also take a PostgreSQL advisory lock, so that two workers do not both
compute the same pairs.

A join pairs its player at once; the periodic sweep every server process runs
(``games.outbox.Sweeper``, hooked up in ``ginsite.asgi``) pairs those whose windows have widened
since. The sweep was chosen over a timer in the lobby's socket because API clients wait in the
pool without one.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.correspondence import check_days
from games.models import Match
from games.services import lock_players
from ginsite.refusals import Conflict, Refused
from lobby import event_log
from lobby.broadcast import publish_to
from lobby.event_feeds import person_json
from lobby.models import Block, PoolEntry
from lobby.presence import busy_user_ids, seen_over_http
from lobby.ratings.glicko import START_RATING
from lobby.ratings.models import Rating

from .pairing import check_free, check_rules, start_match

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

WINDOW_START = 100
WINDOW_MAX = 500
WIDEN_OVER = timedelta(seconds=30)
# The pool's advisory lock (one bigint key: its own space beside the event log's pairs of keys).
_POOL_LOCK = 0x67696E706F6F6C  # "ginpool"
Waiting = PoolEntry.Status.WAITING


def window(joined_at: datetime, now: datetime) -> int:
    """How far from a player's rating they are paired, after waiting since ``joined_at``:
    +-100 at first, growing evenly to +-500 over 30 seconds."""
    waited = max(0.0, (now - joined_at) / WIDEN_OVER)
    return round(WINDOW_START + (WINDOW_MAX - WINDOW_START) * min(1.0, waited))


def waiting_entry(user: AbstractBaseUser) -> PoolEntry | None:
    return PoolEntry.objects.filter(user_id=user.pk, status=Waiting).first()


def last_entry(user: AbstractBaseUser) -> PoolEntry | None:
    """The player's newest entry, waiting or not (the API's ``GET /pool``)."""
    found = PoolEntry.objects.filter(user_id=user.pk).select_related("match", "opponent__profile")
    return found.order_by("-joined_at", "-pk").first()


# --- Joining and leaving -----------------------------------------------------------------------


def join_pool(
    user: AbstractBaseUser,
    preset: str,
    target: Any,
    *,
    rated: bool = False,
    allow_bots: bool = False,
    days_per_move: Any = None,
    now: datetime | None = None,
) -> PoolEntry:
    """Wait for a game of these rules, and be paired at once if someone fits. Refused for an
    unknown preset, target or days per move, a second join, or a player in a live lobby
    match who asks for a live one (``days_per_move``: a correspondence match)."""
    seen_over_http(user)
    target = check_rules(preset, target)
    days = check_days(days_per_move)
    now = now or timezone.now()
    try:
        with transaction.atomic():
            lock_players([user.pk])
            check_free([user.pk], user.pk, days)
            entry = PoolEntry.objects.create(
                user_id=user.pk,
                preset=preset,
                target=target,
                rated=bool(rated),
                days_per_move=days,
                allow_bots=bool(allow_bots),
                is_bot=_plays_by_bot(user),
                rating=_rating(user.pk, preset),
                previous_opponent_id=_previous_opponent(user.pk),
                joined_at=now,
            )
            publish_to([user.pk], ["pool"])
    except IntegrityError:
        raise Conflict(
            _("You are already waiting for a game. Cancel it to play something else.")
        ) from None
    pair_waiting(now, only=entry)
    entry.refresh_from_db()
    return entry


def leave_pool(user: AbstractBaseUser, now: datetime | None = None) -> None:
    """Stop waiting. Refused when the player is not waiting (paired meanwhile, or never in)."""
    seen_over_http(user)
    with transaction.atomic():
        lock_players([user.pk])
        left = PoolEntry.objects.filter(user_id=user.pk, status=Waiting).update(
            status=PoolEntry.Status.CANCELLED, ended_at=now or timezone.now()
        )
        if not left:
            raise Conflict(_("You are not waiting for a game."))
        publish_to([user.pk], ["pool"])


def _plays_by_bot(user: AbstractBaseUser) -> bool:
    profile = getattr(user, "profile", None)
    return bool(getattr(profile, "plays_by_bot", False))


def _rating(user_id: int, preset: str) -> float:
    found = Rating.objects.filter(user_id=user_id, preset=preset).values_list("rating", flat=True)
    return next(iter(found), START_RATING)


def _previous_opponent(user_id: int) -> int | None:
    last = (
        PoolEntry.objects.filter(user_id=user_id, status=PoolEntry.Status.PAIRED)
        .order_by("-ended_at", "-pk")
        .values_list("opponent_id", flat=True)
        .first()
    )
    return last


# --- Choosing pairs (no database) --------------------------------------------------------------


@dataclass(frozen=True)
class Pool:
    """What a pass knows: the waiting entries, oldest first, and who blocked whom."""

    entries: list[PoolEntry]
    blocked: frozenset[tuple[int, int]]
    now: datetime

    def fits(self, a: PoolEntry, b: PoolEntry) -> bool:
        """Whether ``a`` and ``b`` may play each other at all (the window aside)."""
        same_game = (a.preset, a.target, a.rated, a.days_per_move) == (
            b.preset,
            b.target,
            b.rated,
            b.days_per_move,
        )
        return (
            same_game
            and a.user_id != b.user_id
            and (a.user_id, b.user_id) not in self.blocked
            and (a.is_bot == b.is_bot or (b.allow_bots if a.is_bot else a.allow_bots))
        )

    def near(self, a: PoolEntry, b: PoolEntry) -> bool:
        wider = max(window(a.joined_at, self.now), window(b.joined_at, self.now))
        return abs(a.rating - b.rating) <= wider

    def best_for(self, me: PoolEntry, others: Iterable[PoolEntry]) -> PoolEntry | None:
        """The nearest rating within the window; the player ``me`` was paired with last time
        only when nobody else waits for the same game."""
        fitting = [o for o in others if self.fits(me, o)]
        fresh = [o for o in fitting if not _again(me, o)]
        near = [o for o in (fresh or fitting) if self.near(me, o)]
        if not near:
            return None
        return min(near, key=lambda o: (abs(o.rating - me.rating), o.joined_at, o.pk))

    def pairs(self, only: PoolEntry | None = None) -> list[tuple[PoolEntry, PoolEntry]]:
        """Pairs to seat, the player waiting longest first. With ``only``: that player's."""
        free = {e.pk: e for e in self.entries}
        found = []
        for me in [only] if only is not None else self.entries:
            if me.pk not in free:
                continue
            other = self.best_for(me, (e for pk, e in free.items() if pk != me.pk))
            if other is not None:
                del free[me.pk], free[other.pk]
                found.append((me, other) if me.joined_at <= other.joined_at else (other, me))
        return found


def _again(a: PoolEntry, b: PoolEntry) -> bool:
    return a.previous_opponent_id == b.user_id or b.previous_opponent_id == a.user_id


# --- Pairing -----------------------------------------------------------------------------------


def pair_waiting(now: datetime | None = None, only: PoolEntry | None = None) -> list[Match]:
    """One pairing pass: seat every pair that fits now; the matches started. The sweep of
    every worker calls it every few seconds; one pass runs at a time (another worker's pass
    in progress is left to do the work). With ``only``: that entry's player, if someone fits
    them (a join), which needs no such lock: two joins that pick the same player queue on
    that player's row in ``_seat``, and the one that comes second looks again."""
    now = now or timezone.now()
    if only is not None:
        return _pair_one(only, now)
    started = []
    with _one_pass_at_a_time() as mine:
        if not mine:
            return []
        pool = _read_pool(now, None)
        assert pool is not None  # None only for a join's entry
        for first, second in pool.pairs():
            # Each pair in a transaction of its own: holding one pair's players while
            # locking the next pair's would take rows out of ``lock_players``' order.
            match = _try_seat(first, second, now)
            if match is not None:
                started.append(match)
    return started


@contextmanager
def _one_pass_at_a_time() -> Iterator[bool]:
    """Whether this pass may run: on PostgreSQL, whether it got the pool's advisory lock
    (held by the session, released after the pass); elsewhere always."""
    if connection.vendor != "postgresql":
        yield True
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s)", [_POOL_LOCK])
        got = bool(cursor.fetchone()[0])
    try:
        yield got
    finally:
        if got:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_unlock(%s)", [_POOL_LOCK])


# A join looks again this many times when the player it picked was taken meanwhile.
_JOIN_TRIES = 4


def _pair_one(entry: PoolEntry, now: datetime) -> list[Match]:
    for _try in range(_JOIN_TRIES):
        pool = _read_pool(now, entry)
        if pool is None:
            return []  # paired by someone else's pass meanwhile, or cancelled
        pairs = pool.pairs(entry)
        if not pairs:
            return []
        match = _try_seat(*pairs[0], now)
        if match is not None:
            return [match]
    return []


def _try_seat(first: PoolEntry, second: PoolEntry, now: datetime) -> Match | None:
    try:
        with transaction.atomic():
            return _seat(first, second, now)
    except Refused:
        return None  # one of them sat down elsewhere meanwhile: both stay as they are


def _read_pool(now: datetime, only: PoolEntry | None) -> Pool | None:
    waiting = PoolEntry.objects.filter(status=Waiting)
    if only is not None:
        waiting = waiting.filter(
            preset=only.preset,
            target=only.target,
            rated=only.rated,
            days_per_move=only.days_per_move,
        )
    entries = list(waiting.order_by("joined_at", "pk"))
    if only is not None:
        only_now = next((e for e in entries if e.pk == only.pk), None)
        if only_now is None:
            return None  # paired by someone else's pass, or cancelled
    live = [e.user_id for e in entries if e.days_per_move is None]
    busy = busy_user_ids(now, among=live) if live else set()
    if busy:
        # Seated in a live match by a challenge meanwhile: out of the live pool.
        PoolEntry.objects.filter(
            status=Waiting, user_id__in=busy, days_per_move__isnull=True
        ).update(status=PoolEntry.Status.CANCELLED, ended_at=now)
        entries = [e for e in entries if e.user_id not in busy or e.days_per_move is not None]
    users = [e.user_id for e in entries]
    blocks = Block.objects.filter(blocker_id__in=users, blocked_id__in=users)
    pairs = blocks.values_list("blocker_id", "blocked_id")
    blocked = frozenset(p for a, b in pairs for p in ((a, b), (b, a)))
    return Pool(entries, blocked, now)


def _seat(first: PoolEntry, second: PoolEntry, now: datetime) -> Match | None:
    """Seat two waiting players: under their row locks, both still waiting and free."""
    players = [first.user_id, second.user_id]
    lock_players(players)
    if PoolEntry.objects.filter(pk__in=[first.pk, second.pk], status=Waiting).count() != 2:
        return None  # one of them cancelled meanwhile
    check_free(players, first.user_id, first.days_per_move)
    for me, other in ((first, second), (second, first)):
        PoolEntry.objects.filter(pk=me.pk).update(
            status=PoolEntry.Status.PAIRED, opponent_id=other.user_id, ended_at=now
        )
    users = get_user_model().objects.select_related("profile").in_bulk(players)
    match = start_match(
        users[first.user_id],
        users[second.user_id],
        first.preset,
        first.target,
        now,
        rated=first.rated,
        from_pool=True,
        days_per_move=first.days_per_move,
    )
    PoolEntry.objects.filter(pk__in=[first.pk, second.pk]).update(match=match)
    event_log.record_all(
        [
            event_log.Entry(me.user_id, "paired", paired_json(me, users[other.user_id], match))
            for me, other in ((first, second), (second, first))
        ]
    )
    publish_to(players, ["pool"])
    return match


def paired_json(entry: PoolEntry, opponent: Any, match: Match) -> dict[str, Any]:
    """A "paired" event: the match to go to, its rules and the opponent."""
    return {
        "match": match.public_id,
        "preset": entry.preset,
        "target": entry.target,
        "rated": entry.rated,
        "days_per_move": entry.days_per_move,
        "opponent": person_json(opponent),
    }
