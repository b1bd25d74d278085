"""The lobby's hand-written SQL (``ginsite.lib.rows``), and the only module of the lobby that uses
it or opens a cursor (a contract in pyproject.toml, and tests/site/test_sql_rooms.py): the
statements each API request, move or pool join makes, written out where the ORM's building of
them was a measured part of the server's time. Each says what it does in ORM terms."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from functools import cache
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection, transaction

from ginsite.lib import rows
from lobby.models import ApiToken, PlayerEvent, PoolEntry, Presence, Profile
from lobby.ratings.models import Rating

# --- Writes of any model -----------------------------------------------------------------------


def insert(*instances: Any) -> None:
    """``Model.objects.bulk_create(instances)`` for new rows of one model, their ids set."""
    rows.insert(*instances)


def insert_new(instance: Any) -> bool:
    """Insert the row unless its unique key is taken (``ON CONFLICT DO NOTHING``): whether it
    was inserted."""
    return rows.insert_new(instance)


def save_fields(instance: Any, fields: Iterable[str]) -> None:
    """``instance.save(update_fields=fields)``: those columns of its row, written out."""
    rows.update(instance, list(fields))


# --- Each player's numbered events (lobby.events.log) ---------------------------------------------

# One statement numbers and stores an event: the player's next number is read where it is
# written. Every move stores one for each player, so the ORM's three statements (the maximum, a
# savepoint, the insert) and their query building were a good part of a move's time. SQLite's
# writers take turns (IMMEDIATE transactions); on PostgreSQL the writers of one player's events
# take turns on a transaction-level advisory lock, since a race for the next number could be
# lost over and over by one writer while others won (8 writers at once exhausted any fixed
# number of tries). The unique (user, seq) constraint still guards the numbers: a writer that
# finds its number taken inserts nothing and tries again.
_PLAYER_EVENTS_LOCK = 0x67696E  # the advisory locks' first key: "gin"
_APPEND = """
    INSERT INTO {table} (user_id, seq, kind, payload, created_at)
    SELECT %s, COALESCE(MAX(seq), 0) + 1, %s, %s, %s FROM {table} WHERE user_id = %s
    ON CONFLICT (user_id, seq) DO NOTHING
    RETURNING id, seq
"""


_APPEND_ALL = """
    INSERT INTO {table} (user_id, seq, kind, payload, created_at)
    SELECT v.column1, COALESCE((SELECT MAX(e.seq) FROM {table} e WHERE e.user_id = v.column1), 0)
        + 1, v.column2, v.column3, v.column4
    FROM (VALUES {rows}) AS v WHERE true
    ON CONFLICT (user_id, seq) DO NOTHING
    RETURNING id, user_id, seq
"""


def _event_locks(players: Sequence[int]) -> list[rows.Statement]:
    """On PostgreSQL, the players' event-log locks, in the order of their ids (the select list
    is evaluated left to right): two writers of the same players' events queue in one order."""
    if connection.vendor != "postgresql":
        return []
    locks_sql = ", ".join(["pg_advisory_xact_lock(%s, %s)"] * len(players))
    return [(f"SELECT {locks_sql}", [v for p in players for v in (_PLAYER_EVENTS_LOCK, p)])]


def lock_event_logs(players: Sequence[int]) -> None:
    """Hold these players' event logs until the transaction ends (PostgreSQL)."""
    rows.fetch_sets(_event_locks(players))


def append_events(players: Sequence[int], values: list[list[Any]]) -> dict[int, tuple[int, int]]:
    """Lock the ``players``' logs and store one event for each (``values``: user, kind,
    payload, time, as the database takes them) under their next numbers, in one round trip:
    {user id: (event id, number)}, without the players whose number was taken meanwhile."""
    sql = _APPEND_ALL.format(
        table=connection.ops.quote_name(PlayerEvent._meta.db_table),
        rows=", ".join(["(%s, %s, %s, %s)"] * len(values)),
    )
    insert = (sql, [v for value in values for v in value])
    found = rows.fetch_sets([*_event_locks(players), insert])[-1]
    return {user_id: (pk, seq) for pk, user_id, seq in found}


def append_event(values: list[Any]) -> tuple[int, int]:
    """Store one event (user, kind, payload, time) under its player's next number, the log's
    lock held already: (event id, number)."""
    conn = transaction.get_connection()
    sql = _APPEND.format(table=conn.ops.quote_name(PlayerEvent._meta.db_table))
    with conn.cursor() as cursor:
        for _attempt in range(20):
            cursor.execute(sql, [*values, values[0]])
            row = cursor.fetchone()
            if row is not None:
                return row[0], row[1]
    raise RuntimeError(f"could not number an event for user {values[0]}")


# --- Who is in the lobby (lobby.presence) -------------------------------------------------------

_PRESENCE = rows.Columns(Presence, "p")


def mark_seen(user_id: int, channel_name: str, now: datetime, cutoff: datetime) -> bool | None:
    """A page or stream of the player is alive at ``now``: None when its row still counted
    (after ``cutoff``) and was merely refreshed, else whether another row of the player's
    counted (they were online already). Every API request of a player asks this, and the
    ORM's building of these three statements was 6% of the server's time pairing 500
    players."""
    at, cut = (connection.ops.adapt_datetimefield_value(t) for t in (now, cutoff))
    c = _PRESENCE.bare
    with connection.cursor() as cursor:
        # The common case, a request or stream whose row still counts: one statement.
        cursor.execute(
            f"UPDATE {_PRESENCE.name} SET {c('last_seen')} = %s"
            f" WHERE {c('channel_name')} = %s AND {c('user')} = %s AND {c('last_seen')} > %s",
            [at, channel_name, user_id, cut],
        )
        if cursor.rowcount:
            return None
        cursor.execute(
            f"SELECT 1 FROM {_PRESENCE.name}"
            f" WHERE {c('user')} = %s AND {c('last_seen')} > %s LIMIT 1",
            [user_id, cut],
        )
        was_online = cursor.fetchone() is not None
        # The row, new or gone stale, in one statement (two requests of one player at once:
        # the second one's timestamp wins, as good as the first's).
        cursor.execute(
            f"INSERT INTO {_PRESENCE.name} ({c('channel_name')}, {c('user')},"
            f" {c('last_seen')}) VALUES (%s, %s, %s) ON CONFLICT ({c('channel_name')})"
            f" DO UPDATE SET {c('user')} = EXCLUDED.{c('user')},"
            f" {c('last_seen')} = EXCLUDED.{c('last_seen')}",
            [channel_name, user_id, at],
        )
    return was_online


# --- The token of an API request (lobby.accounts.tokens)
# ------------------------------------------------


@cache
def _token_sql(vendor: str) -> tuple[str, rows.Columns, rows.Columns, rows.Columns]:
    token, user, profile = (
        rows.Columns(ApiToken, "t"),
        rows.Columns(get_user_model(), "u"),
        rows.Columns(Profile, "p"),
    )
    sql = (
        f"SELECT {token.sql}, {user.sql}, {profile.sql} FROM {token.table}"
        f" JOIN {user.table} ON {user.column('id')} = {token.column('user')}"
        f" LEFT JOIN {profile.table} ON {profile.column('user')} = {user.column('id')}"
        f" WHERE {token.column('digest')} = %s AND {user.column('is_active')} = %s"
    )
    return sql, token, user, profile


def token_with_account(token_digest: str) -> ApiToken | None:
    """``ApiToken.objects.select_related("user", "user__profile").filter(digest=...,
    user__is_active=True).first()``, the lookup of every API request."""
    sql, token_cols, user_cols, profile_cols = _token_sql(connection.vendor)
    row = rows.fetch_one(sql, [token_digest, True])
    if row is None:
        return None
    token, end = token_cols.take(row)
    user, end = user_cols.take(row, end)
    profile, _ = profile_cols.take(row, end)
    assert token is not None and user is not None
    rows.related(token, "user", user)
    rows.related(user, "profile", profile)
    return token  # type: ignore[return-value]


# --- Quick pairing (lobby.pool.service) -------------------------------------------------------

_RATINGS, _ENTRIES = rows.Columns(Rating, "r"), rows.Columns(PoolEntry, "e")


def rating_and_previous_opponent(user_id: int, preset: str) -> tuple[float | None, int | None]:
    """The player's rating in this preset (None: none yet), and whom the pool paired them with
    last, in one statement (a join's statements are a burst's cost)."""
    rating, entry = _RATINGS, _ENTRIES
    found = rows.fetch_one(
        f"SELECT (SELECT {rating.column('rating')} FROM {rating.table}"
        f" WHERE {rating.column('user')} = %s AND {rating.column('preset')} = %s),"
        f" (SELECT {entry.column('opponent')} FROM {entry.table}"
        f" WHERE {entry.column('user')} = %s AND {entry.column('status')} = %s"
        f" ORDER BY {entry.column('ended_at')} DESC, {entry.column('id')} DESC LIMIT 1)",
        [user_id, preset, user_id, PoolEntry.Status.PAIRED.value],
    )
    assert found is not None
    return found[0], found[1]


def first_free_lock(keys: Sequence[int]) -> int | None:
    """The first of two session-level advisory locks that is free, taken, in one round trip
    (CASE tries them in order and stops); None when both are held (PostgreSQL)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT CASE WHEN pg_try_advisory_lock(%s) THEN %s"
            " WHEN pg_try_advisory_lock(%s) THEN %s END",
            [keys[0], keys[0], keys[1], keys[1]],
        )
        return cursor.fetchone()[0]


def unlock(key: int) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_unlock(%s)", [key])


def mark_paired(marked: list[PoolEntry], now: datetime | None) -> None:
    """Each entry paired with its ``opponent_id`` in its ``match_id`` at ``now``, in one
    UPDATE."""
    c = _ENTRIES.bare
    cases = " ".join(["WHEN %s THEN %s"] * len(marked))
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {_ENTRIES.name} SET {c('status')} = %s, {c('ended_at')} = %s,"
            f" {c('opponent')} = CASE {c('id')} {cases} END,"
            f" {c('match')} = CASE {c('id')} {cases} END"
            f" WHERE {c('id')} IN ({', '.join(['%s'] * len(marked))})",
            [
                PoolEntry.Status.PAIRED.value,
                connection.ops.adapt_datetimefield_value(now),
                *(v for e in marked for v in (e.pk, e.opponent_id)),
                *(v for e in marked for v in (e.pk, e.match_id)),
                *(e.pk for e in marked),
            ],
        )
