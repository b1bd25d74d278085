"""The hot path's SQL, written once (``ginsite.lib.rows``), and the only module of games that uses
it (a contract in pyproject.toml): the reads every move makes (the mover's seat with its
match, the match row locked by the door with its seats and offers, the outbox's check for an
undelivered change, the seats with their names for the answer, the actions that bring a
cached state up to the row), the writes of a move and of a new match, the newest offers of a
table, and who is seated in a live lobby match. Each does what the queryset in its docstring
did, without building and compiling that queryset on every call."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from functools import cache
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection
from django.db.transaction import TransactionManagementError

from games.models import Action, Announcement, Match, Offer, Seat
from ginsite.lib import rows

# The advisory locks' first key for a guest's starts: "bea" (the event log's is "gin").
_GUEST_STARTS_LOCK = 0x626561


def lock_guest(key_hash: str) -> None:
    """Hold the guest whose key hashes to ``key_hash`` until the transaction ends, as
    ``services.lock_players`` holds a player's row: a guest has no row, so on PostgreSQL a
    transaction-level advisory lock on (``_GUEST_STARTS_LOCK``, 31 bits of the hash) stands
    in for it (another guest sharing those bits merely waits its turn). SQLite's
    transactions here take the write lock when they begin, so there it is held already."""
    if connection.vendor != "postgresql":
        return
    if not connection.in_atomic_block:
        raise TransactionManagementError("lock_guest holds its lock until the commit")
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_advisory_xact_lock(%s, %s)",
            [_GUEST_STARTS_LOCK, int(key_hash[:8], 16) & 0x7FFFFFFF],
        )


@cache
def _held_seat_sql(vendor: str) -> tuple[str, rows.Columns, rows.Columns]:
    seat, match = rows.Columns(Seat, "s"), rows.Columns(Match, "m")
    sql = (
        f"SELECT {seat.sql}, {match.sql} FROM {seat.table}"
        f" JOIN {match.table} ON {match.column('id')} = {seat.column('match')}"
        f" WHERE {match.column('public_id')} = %s AND {seat.column('user')} = %s"
        f" AND {seat.column('kind')} = %s ORDER BY {seat.column('number')} LIMIT 1"
    )
    return sql, seat, match


def held_seat(public_id: str, user_id: int) -> Seat | None:
    """``Seat.objects.filter(match__public_id=public_id, user=user_id, kind=PLAYER)
    .select_related("match").first()``: the player's (first) seat at that match."""
    sql, seat_cols, match_cols = _held_seat_sql(connection.vendor)
    row = rows.fetch_one(sql, [public_id, user_id, Seat.Kind.PLAYER.value])
    if row is None:
        return None
    seat, end = seat_cols.take(row)
    match, _ = match_cols.take(row, end)
    assert seat is not None
    rows.related(seat, "match", match)
    return seat  # type: ignore[return-value]


# Where the offers read with a match are kept on it: a plain list, as a Prefetch's to_attr keeps
# it (absent when they were not read).
OFFERS_READ = "offers_read"


@cache
def _locked_sql(vendor: str, key: str = "id") -> tuple[str, str, rows.Columns, rows.Columns]:
    match, offer = rows.Columns(Match, "m"), rows.Columns(Offer, "o")
    return (
        f"SELECT {match.sql} FROM {match.table} WHERE {match.column(key)} = %s{rows.for_update()}",
        f"SELECT {offer.sql} FROM {offer.table} WHERE {offer.column('match')} {_match_by(key)}"
        f" ORDER BY {offer.column('created_at')} DESC",
        match,
        offer,
    )


@cache
def _shown_sql(vendor: str) -> str:
    match = rows.Columns(Match, "m")
    return f"SELECT {match.sql} FROM {match.table} WHERE {match.column('id')} = %s"


def match_to_show(pk: int) -> Match | None:
    """``Match.objects.prefetch_related("seats__user__profile").filter(pk=pk).first()``, its
    offers read with it (``OFFERS_READ``): all a table socket's render of the match reads of
    it, in one round trip on PostgreSQL. None when there is no such match."""
    _, offers_sql, match_cols, offer_cols = _locked_sql(connection.vendor)
    players_sql, seat_cols, user_cols, profile_cols = _players_sql(connection.vendor)
    found = rows.fetch_sets(
        [(_shown_sql(connection.vendor), [pk]), (players_sql, [pk]), (offers_sql, [pk])]
    )
    if not found[0]:
        return None
    match, _ = match_cols.take(found[0][0])
    assert match is not None
    seats = rows.chained(found[1], seat_cols, ("user", user_cols), ("profile", profile_cols))
    rows.prefetched(match, "seats", seats)
    setattr(match, OFFERS_READ, [offer_cols.take(r)[0] for r in found[2]])
    return match  # type: ignore[return-value]


def _match_by(key: str) -> str:
    """The condition on a match id column that finds the match whose ``key`` is the value."""
    if key == "id":
        return "= %s"
    quote = connection.ops.quote_name
    table, column = quote(Match._meta.db_table), quote(Match._meta.get_field(key).column)
    return f"= (SELECT {quote('id')} FROM {table} WHERE {column} = %s)"


def locked_match(pk: int, *, move: bool = False) -> Match:
    """``Match.objects.select_for_update().prefetch_related(seats_with_players()).get(pk=pk)``,
    inside the caller's transaction. The seats come with their players' names: the change's
    answer shows them. With ``move``, what a move reads besides: the match's offers, newest
    first, in the list ``Prefetch("offers", to_attr=OFFERS_READ)`` would leave
    (``live_table.latest_offers``), and in ``WAITING_READ`` whether an earlier announcement
    of the match waits undelivered (``undelivered``, for ``outbox.announce``)."""
    match = _locked("id", pk, move)
    if match is None:
        raise Match.DoesNotExist(f"no match {pk}")
    return match


def locked_match_at(public_id: str, *, move: bool = False) -> Match | None:
    """``locked_match`` for the match whose public id is ``public_id``, or None: a move that
    finds its match and its seat under the lock, without a read before it."""
    return _locked("public_id", public_id, move)


# Whether an announcement of the match waited undelivered when it was locked for a move. Under
# the lock no other change of the match can add one; a delivery may still take one away, so
# the answer errs only towards waiting (the order of the announcements holds either way).
WAITING_READ = "waiting_read"


def _locked(key: str, value: Any, move: bool) -> Match | None:
    """The match row locked, then its seats (and for a move its offers and whether an
    announcement waits), each found by ``key`` so that they all go together: one round trip
    on PostgreSQL (``rows.fetch_sets``), the lock taken by the first before the others read."""
    if connection.features.has_select_for_update and connection.get_autocommit():
        raise TransactionManagementError("locked_match() needs a transaction")
    match_sql, offers_sql, match_cols, offer_cols = _locked_sql(connection.vendor, key)
    statements: list[rows.Statement] = [
        (match_sql, [value]),
        (_players_sql(connection.vendor, key)[0], [value]),
    ]
    if move:
        statements += [(offers_sql, [value]), (_waiting_sql(connection.vendor, key), [value])]
    found = rows.fetch_sets(statements)
    if not found[0]:
        return None
    match, _ = match_cols.take(found[0][0])
    assert match is not None
    rows.prefetched(match, "seats", _seats_from(found[1]))
    if move:
        setattr(match, OFFERS_READ, [offer_cols.take(r)[0] for r in found[2]])
        setattr(match, WAITING_READ, bool(found[3]))
    return match  # type: ignore[return-value]


@cache
def _players_sql(
    vendor: str, key: str = "id"
) -> tuple[str, rows.Columns, rows.Columns, rows.Columns]:
    # The profile is the accounts' (the lobby's model): reached through the account's relation.
    seat, user, profile = (
        rows.Columns(Seat, "s"),
        rows.Columns(get_user_model(), "u"),
        rows.Columns(get_user_model()._meta.get_field("profile").related_model, "p"),
    )
    sql = (
        f"SELECT {seat.sql}, {user.sql}, {profile.sql} FROM {seat.table}"
        f" LEFT JOIN {user.table} ON {user.column('id')} = {seat.column('user')}"
        f" LEFT JOIN {profile.table} ON {profile.column('user')} = {user.column('id')}"
        f" WHERE {seat.column('match')} {_match_by(key)} ORDER BY {seat.column('number')}"
    )
    return sql, seat, user, profile


def prefetch_players(match: Match) -> None:
    """``prefetch_related_objects([match], seats_with_players())``: the seats with their
    accounts and profiles, for the names an answer shows."""
    rows.prefetched(match, "seats", _seats_with_players(match.pk))


def _seats_with_players(match_id: int) -> list[Seat]:
    return _seats_from(rows.fetch_all(_players_sql(connection.vendor)[0], [match_id]))


def _seats_from(found: list[tuple[Any, ...]]) -> list[Seat]:
    _, seat_cols, user_cols, profile_cols = _players_sql(connection.vendor)
    # Bea's seat has no user (and so no profile).
    return rows.chained(found, seat_cols, ("user", user_cols), ("profile", profile_cols))  # type: ignore[return-value]


@cache
def _actions_sql(vendor: str) -> tuple[str, rows.Columns]:
    action = rows.Columns(Action, "a")
    seq = action.column("seq")
    sql = (
        f"SELECT {action.sql} FROM {action.table} WHERE {action.column('match')} = %s"
        f" AND {seq} > %s AND {seq} <= %s ORDER BY {seq}"
    )
    return sql, action


def actions_between(match_id: int, after: int, upto: int) -> list[tuple[int, Any]]:
    """``Action.objects.filter(match=match_id, seq__gt=after, seq__lte=upto)``, in order, as
    (seat, action): the moves that bring a state of the match at version ``after`` to
    ``upto`` (``state_cache.load_state``)."""
    sql, action_cols = _actions_sql(connection.vendor)
    actions = [action_cols.take(row)[0] for row in rows.fetch_all(sql, [match_id, after, upto])]
    return [(action.seat, action.payload) for action in actions]  # type: ignore[attr-defined]


@cache
def _waiting_sql(vendor: str, key: str = "id") -> str:
    row = rows.Columns(Announcement, "a")
    return (
        f"SELECT 1 FROM {row.table} WHERE {row.column('match')} {_match_by(key)}"
        f" AND {row.column('delivered_at')} IS NULL LIMIT 1"
    )


def undelivered(match_id: int) -> bool:
    """``Announcement.objects.filter(match_id=match_id, delivered_at__isnull=True).exists()``:
    an earlier change of the match still waits to be delivered."""
    return rows.fetch_one(_waiting_sql(connection.vendor), [match_id]) is not None


# --- Writes ------------------------------------------------------------------------------------


def insert(*instances: Any) -> None:
    """``Model.objects.bulk_create(instances)`` for new rows of one model, their ids set."""
    rows.insert(*instances)


def save_fields(instance: Any, fields: Iterable[str]) -> None:
    """``instance.save(update_fields=fields)``: those columns of its row, written out."""
    rows.update(instance, list(fields))


def store_move(actions: list[Action], match: Match, fields: Iterable[str]) -> None:
    """A move's actions inserted and the match row's ``fields`` updated in one round trip
    (on PostgreSQL), the actions' ids set."""
    found = rows.fetch_sets(
        [rows.insert_statement(*actions), rows.update_statement(match, list(fields))]
    )
    rows.inserted(actions, found[0])


def with_seats(match: Match, seats: list[Seat]) -> None:
    """``match.seats.all()`` answers ``seats`` without a query (until ``forget_seats``)."""
    rows.prefetched(match, "seats", seats)


def forget_seats(match: Match) -> None:
    rows.forget_prefetched(match, "seats")


@cache
def _users() -> rows.Columns:
    return rows.Columns(get_user_model(), "u")


def lock_players(user_ids: list[int], *, skip_locked: bool) -> set[int]:
    """``User.objects.filter(id__in=user_ids).order_by("id").select_for_update(no_key=True,
    skip_locked=skip_locked)``: the ids whose rows this transaction now holds (PostgreSQL)."""
    users = _users()
    held = rows.fetch_all(
        f"SELECT {users.column('id')} FROM {users.table}"
        f" WHERE {users.column('id')} IN ({', '.join(['%s'] * len(user_ids))})"
        f" ORDER BY {users.column('id')} FOR NO KEY UPDATE{' SKIP LOCKED' if skip_locked else ''}",
        user_ids,
    )
    return {user_id for (user_id,) in held}


# --- What tables and the lobby read often ------------------------------------------------------

_OFFERS = rows.Columns(Offer, "o")


def newest_offers(match: Match, count: int) -> list[Offer]:
    """``match.offers.order_by("-id")[:count]``, each with its match at hand. Every read of
    a table asks this; the ORM's building of it was 5% of the server's time when 500 players
    opened their new matches at once."""
    found = rows.fetch_all(
        f"SELECT {_OFFERS.sql} FROM {_OFFERS.table} WHERE {_OFFERS.column('match')} = %s"
        f" ORDER BY {_OFFERS.column('id')} DESC LIMIT %s",
        [match.pk, count],
    )
    offers = [_OFFERS.take(row)[0] for row in found]
    for offer in offers:
        rows.related(offer, "match", match)
    return offers  # type: ignore[return-value]


_SEATS, _MATCHES = rows.Columns(Seat, "s"), rows.Columns(Match, "m")


def seated_in_live_lobby_matches(since: datetime, user_ids: Iterable[int] | None) -> set[int]:
    """Which of these players (all, when None) hold a seat in an active live lobby match
    moved in since ``since``.
    Every join of the pool and every match made asks this,
    and the ORM's building of it was 5% of the server's time pairing 500 players."""
    sql = (
        f"SELECT {_SEATS.column('user')} FROM {_SEATS.table}"
        f" JOIN {_MATCHES.table} ON {_MATCHES.column('id')} = {_SEATS.column('match')}"
        f" WHERE {_SEATS.column('kind')} = %s AND {_SEATS.column('user')} IS NOT NULL"
        f" AND {_MATCHES.column('kind')} = %s AND {_MATCHES.column('days_per_move')} IS NULL"
        f" AND {_MATCHES.column('status')} = %s AND {_MATCHES.column('updated_at')} > %s"
    )
    params: list[Any] = [
        Seat.Kind.PLAYER.value,
        Match.Kind.LOBBY.value,
        Match.Status.ACTIVE.value,
        connection.ops.adapt_datetimefield_value(since),
    ]
    if user_ids is not None:
        among = list(user_ids)
        if not among:
            return set()
        sql += f" AND {_SEATS.column('user')} IN ({', '.join(['%s'] * len(among))})"
        params += among
    return {user_id for (user_id,) in rows.fetch_all(sql, params)}
