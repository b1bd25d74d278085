"""Quick pairing ("Play now"): a player joins the pool for one preset and target, rated or
casual, and the server seats them with the waiting player of the nearest rating.

The window of ratings a player is paired within widens while they wait (``window``); two
players are paired when their ratings are within the wider of their two windows (the one who
has waited longer asked for that much). Never two players where either blocked the other; a
bot with a human only when the human's tile allows bots; not the one you were paired with
last time while someone else waits for the same game.

Pairing is done in passes over the whole pool (``pair_waiting``), not per join: a join only
adds its entry and then runs a pass, which seats every pair that fits, a batch of pairs per
transaction. On PostgreSQL at most two passes run at once (session advisory locks, one per
worker of a busy site); a join that finds both running leaves its entry to them: a pass looks
for entries it has not read before it ends. So 500 players pressing "Play now" at once make a
few passes that pair them all, and not 500 joins each reading the whole pool and racing for the
same longest-waiting player (docs/performance.md, the pool).

Exactly once: a batch is seated in one transaction that first takes its players' rows, those
nobody else holds (``SKIP LOCKED``: the other pass seating the same pairs, or a challenge being
accepted, has them; such pairs are left for later), re-reads their entries and who is in a
lobby match, and seats only the pairs whose two players are held, still wait and are free.
SQLite transactions here take the write lock when they begin, so there a pass takes them all.

Every worker's periodic sweep (``games.outbox.Sweeper``, hooked up in ``ginsite.asgi``) runs a
pass too, for the players whose windows have widened since they joined. The sweep was chosen
over a timer in the lobby's socket because API clients wait in the pool without one.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.live.correspondence import check_days
from games.models import Match
from games.outbox import sweeper
from games.services import lock_players
from ginsite.lib.refusals import Conflict
from lobby import lookups
from lobby.broadcast import publish_to, send_to_match
from lobby.events import log as event_log
from lobby.events.feeds import person_json
from lobby.models import Block, PoolEntry
from lobby.pool.pairs import WIDEN_OVER, Pool, window
from lobby.presence import busy_user_ids, seen_over_http
from lobby.ratings import aborts, eligibility
from lobby.ratings.glicko import START_RATING
from lobby.services.pairing import check_free, check_rules, new_match, withdraw_elsewhere

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

# The pool's advisory locks (bigint keys: their own space beside the event log's pairs of keys).
_POOL_LOCKS = (0x67696E706F6F6C, 0x67696E706F6F6D)  # "ginpool", "ginpoom"
Waiting = PoolEntry.Status.WAITING


# --- The tile of a waiting player ---------------------------------------------------------------

# A waiting player's "Play now" tile says how far from their rating they are looked for
# (``window``); it is pushed again each time that has grown by this much.
WINDOW_STEP = 50
_TOLD_LOCK, _TOLD_AT = "pool:widened:lock", "pool:widened:at"


def tell_widened(now: datetime | None = None) -> list[int]:
    """Push the tile of every waiting player whose window grew by a step (a multiple of
    WINDOW_STEP) since this last ran on any worker (each worker's sweep calls it; one of
    them at a time, the last time kept in the shared cache): the players told."""
    now = now or timezone.now()
    if not cache.add(_TOLD_LOCK, 1, timeout=1):
        return []  # another worker's sweep is telling them right now
    try:
        since = cache.get(_TOLD_AT) or now - WIDEN_OVER
        cache.set(_TOLD_AT, now, timeout=int(WIDEN_OVER.total_seconds()) * 2)
        widening = PoolEntry.objects.filter(status=Waiting, joined_at__gt=since - WIDEN_OVER)
        told = [
            user_id
            for user_id, joined_at in widening.values_list("user_id", "joined_at")
            if window(joined_at, now) // WINDOW_STEP > window(joined_at, since) // WINDOW_STEP
        ]
        publish_to(told, ["pool"])
        return told
    finally:
        cache.delete(_TOLD_LOCK)


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
    aborts.check(user.pk)
    if rated:
        eligibility.check(user.pk)
    clock = now  # what the pass after the join goes by: the time it runs at when None
    now = now or timezone.now()
    try:
        with transaction.atomic():
            lock_players([user.pk])
            check_free([user.pk], user.pk, days)
            rating, previous_opponent = _rating_and_previous_opponent(user.pk, preset)
            entry = PoolEntry(
                user_id=user.pk,
                preset=preset,
                target=target,
                rated=bool(rated),
                days_per_move=days,
                allow_bots=bool(allow_bots),
                is_bot=_plays_by_bot(user),
                rating=rating,
                previous_opponent_id=previous_opponent,
                joined_at=now,
            )
            lookups.insert(entry)
            publish_to([user.pk], ["pool"])
    except IntegrityError:
        raise Conflict(
            _("You are already waiting for a game. Cancel it to play something else.")
        ) from None
    pair_waiting(clock, budget=JOIN_PASS_SECONDS)
    entry.refresh_from_db()  # paired by that pass, or not
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


def _rating_and_previous_opponent(user_id: int, preset: str) -> tuple[float, int | None]:
    """The player's rating in this preset, and whom the pool paired them with last."""
    rating, previous = lookups.rating_and_previous_opponent(user_id, preset)
    return (START_RATING if rating is None else rating), previous


# --- Pairing -----------------------------------------------------------------------------------

# Pairs seated in one transaction: their players' rows stay locked until it commits, and their
# "paired" events and pushes leave with the commit.
SEAT_BATCH = 25
# A pass run by a join stops after this long (between two batches) and hands the rest to its
# process's sweep, woken at once: the join is answered, not held for a whole burst of joins.
JOIN_PASS_SECONDS = 1.0
# A pass reads the pool again while its last read found pairs (players joined meanwhile), and
# runs again after its lock is released while someone joined unseen; at most this many times
# each, so that one request does not pair the site for ever (the sweep goes on from there).
_ROUNDS = 20


def pair_waiting(now: datetime | None = None, *, budget: float | None = None) -> list[Match]:
    """One pairing pass: seat every pair that fits now; the matches started. Every join and
    every worker's sweep call it; ``now`` is the clock (the current time when None). A pass
    that finds the others running (on PostgreSQL) returns at once: they see this caller's
    entry, since a pass looks for unread entries after releasing its lock. With ``budget``
    (seconds): stop after that long and leave the rest to the sweep."""
    deadline = None if budget is None else time.monotonic() + budget
    started: list[Match] = []
    for _round in range(_ROUNDS):
        with _one_pass_at_a_time() as mine:
            if not mine:
                return started
            read, matches, done = _pass(now, deadline)
            started += matches
        if not done:
            sweeper.wake()
            break
        # A join that committed while we held the lock, and found it taken, left its entry
        # to us: anything waiting that the last read did not see, and we go again.
        if not PoolEntry.objects.filter(status=Waiting).exclude(pk__in=read).exists():
            break
    return started


@contextmanager
def _one_pass_at_a_time() -> Iterator[bool]:
    """Whether this pass may run: on PostgreSQL, whether it got one of the pool's advisory
    locks (held by the session, released after the pass; two, so that both workers of a
    busy site pair at once, each seating the batches the other does not hold); elsewhere
    always."""
    if connection.vendor != "postgresql":
        yield True
        return
    got = lookups.first_free_lock(_POOL_LOCKS)
    try:
        yield got is not None
    finally:
        if got is not None:
            lookups.unlock(got)


def _pass(now: datetime | None, deadline: float | None) -> tuple[set[int], list[Match], bool]:
    """Read the pool, seat its pairs in batches, and again while a read finds pairs: the
    entries the last read saw, the matches started, and whether it finished (False: the
    deadline came first)."""
    started: list[Match] = []
    read: set[int] = set()
    for _round in range(_ROUNDS):
        pool = _read_pool(now or timezone.now())
        read = {e.pk for e in pool.entries}
        pairs = pool.pairs()
        seated = []
        for first in range(0, len(pairs), SEAT_BATCH):
            # A pass seats one batch at least, however long its read took.
            if deadline is not None and (started or seated) and time.monotonic() > deadline:
                return read, started + seated, False
            seated += _seat_batch(pairs[first : first + SEAT_BATCH], pool.now)
        if not seated:
            # Nothing found, or all of it seated by the other pass meanwhile, or held by
            # someone else's change: the other pass or the next sweep goes on from here.
            break
        started += seated
    return read, started, True


def _read_pool(now: datetime) -> Pool:
    entries = list(PoolEntry.objects.filter(status=Waiting).order_by("joined_at", "pk"))
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


def _seat_batch(pairs: list[tuple[PoolEntry, PoolEntry]], now: datetime) -> list[Match]:
    """Seat these pairs in one transaction: the rows of their players taken (those nobody
    else holds), then only the pairs whose two players are held, whose two entries still
    wait and whose players are in no live lobby match (for a live pair); the others stay as
    they are. What can be done for all of them at once is: their entries, their other live
    offers withdrawn, their events. A correspondence pair sends nobody to the table."""
    with transaction.atomic():
        held = lock_players((e.user_id for pair in pairs for e in pair), skip_locked=True)
        pairs = [(a, b) for a, b in pairs if {a.user_id, b.user_id} <= held]
        players = [e.user_id for pair in pairs for e in pair]
        entries = [e.pk for pair in pairs for e in pair]
        waiting = set(
            PoolEntry.objects.filter(pk__in=entries, status=Waiting).values_list("pk", flat=True)
        )
        busy = busy_user_ids(among=players)
        ready = [
            (a, b)
            for a, b in pairs
            if {a.pk, b.pk} <= waiting
            and (a.days_per_move is not None or not {a.user_id, b.user_id} & busy)
        ]
        if not ready:
            return []
        users = get_user_model().objects.select_related("profile").in_bulk(players)
        started = [
            new_match(
                users[a.user_id],
                users[b.user_id],
                a.preset,
                a.target,
                rated=a.rated,
                days_per_move=a.days_per_move,
            )
            for a, b in ready
        ]
        seated = [e.user_id for pair in ready for e in pair]
        # A live pair sits down at the table now; a correspondence pair keeps its other offers.
        live = [
            (a, b, m) for (a, b), m in zip(ready, started, strict=True) if m.days_per_move is None
        ]
        _mark_paired(ready, started, now)
        withdraw_elsewhere([e.user_id for a, b, _m in live for e in (a, b)], now, from_pool=True)
        event_log.record_all(
            [
                event_log.Entry(me.user_id, "paired", paired_json(me, users[other.user_id], match))
                for (a, b), match in zip(ready, started, strict=True)
                for me, other in ((a, b), (b, a))
            ]
        )
        for a, b, match in live:
            send_to_match([a.user_id, b.user_id], match)
        publish_to(seated, ["pool"])
    return started


def _mark_paired(
    pairs: list[tuple[PoolEntry, PoolEntry]], matches: list[Match], now: datetime
) -> None:
    """Every entry of these pairs paired with the other into its match, in one statement
    (written out: the ORM's ``bulk_update`` spent 5% of the server's time pairing 500
    players building its CASEs)."""
    marked = []
    for (a, b), match in zip(pairs, matches, strict=True):
        for me, other in ((a, b), (b, a)):
            me.status, me.opponent_id, me.ended_at, me.match = (
                PoolEntry.Status.PAIRED,
                other.user_id,
                now,
                match,
            )
            marked.append(me)
    lookups.mark_paired(marked, now)


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
