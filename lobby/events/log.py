"""Each player's numbered event log, for API clients (the websocket and the NDJSON stream).

An event is stored for every player it concerns under that player's next number (1, 2, 3...),
then the player's channel group hears ``{"type": "player.event", "seq": n}``, nothing more;
every stream reads the events it has not sent yet from the database. So a client that
reconnects with ``since=N`` gets exactly what it missed, and events reach streams served by
any process (the Redis channel layer). What goes into the logs is ``lobby.events.feeds``.

Match events store no cards. The seat's view (``games.readers.view_for``) is added when the
event is delivered (``deliver``), for the reader's own seat only.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, NamedTuple

from django.core.cache import cache
from django.db import transaction
from django.db.models import Exists, Max, Min, OuterRef
from django.utils import timezone
from django.utils.translation import gettext as _

from games import access, readers
from ginsite.lib.after_commit import group_send_after_commit
from ginsite.lib.apikit import api_time
from ginsite.lib.refusals import Refused
from lobby import lookups
from lobby.events import idempotency
from lobby.models import PlayerEvent

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

log = logging.getLogger(__name__)

# Promised: at least 10 minutes. Kept longer, so a phone that slept a while still catches up.
KEEP = timedelta(hours=1)
PURGE_LOCK = "events:purge"
PURGE_EVERY_SECONDS = 60
# At most this many events in one catch-up read; a stream reads again until it is up to date.
BATCH = 200


def group_name(user_id: int) -> str:
    """The channel group of every event stream one player has open."""
    return f"events-{user_id}"


# --- Recording ----------------------------------------------------------------------------------


def _append_all(entries: list[Entry]) -> list[PlayerEvent]:
    """Store each entry's event under its player's next number, in one statement (on
    PostgreSQL after the players' locks, in the same round trip)."""
    if not entries:
        return []
    connection = transaction.get_connection()
    if not connection.in_atomic_block:
        with transaction.atomic():  # the advisory locks last until the commit
            return _append_all(entries)
    created_at = timezone.now()
    players = sorted({entry.user_id for entry in entries})
    if len(players) < len(entries):  # one player twice: one at a time, in order
        lookups.lock_event_logs(players)
        return [_append(entry, created_at) for entry in entries]
    values = [_values(entry, created_at) for entry in entries]
    numbered = lookups.append_events(players, values)
    events = []
    for entry in entries:
        if entry.user_id not in numbered:
            # Its number was taken in between (SQLite's writers, which hold no lock, take
            # turns; this is for safety): on its own, and again until it has a number.
            events.append(_append(entry, created_at))
            continue
        pk, seq = numbered[entry.user_id]
        events.append(_stored(entry, pk, seq, created_at))
    return events


def _append(entry: Entry, created_at: datetime) -> PlayerEvent:
    """Store one event under the player's next number (the lock is held already)."""
    pk, seq = lookups.append_event(_values(entry, created_at))
    return _stored(entry, pk, seq, created_at)


def _values(entry: Entry, created_at: datetime) -> list[Any]:
    """The entry's user, kind, payload and time as the INSERTs take them."""
    connection = transaction.get_connection()
    meta = PlayerEvent._meta
    return [
        entry.user_id,
        entry.kind,
        meta.get_field("payload").get_db_prep_save(entry.payload, connection),
        meta.get_field("created_at").get_db_prep_save(created_at, connection),
    ]


def _stored(entry: Entry, pk: int, seq: int, created_at: datetime) -> PlayerEvent:
    return PlayerEvent(
        id=pk,
        user_id=entry.user_id,
        seq=seq,
        kind=entry.kind,
        payload=entry.payload,
        created_at=created_at,
    )


def _as_stored(payload: dict[str, Any]) -> dict[str, Any]:
    """``payload`` as a read of the log gives it back: through the field's JSON encoder."""
    encoder = PlayerEvent._meta.get_field("payload").encoder  # type: ignore[attr-defined]
    return json.loads(json.dumps(payload, cls=encoder))  # type: ignore[no-any-return]


class Entry(NamedTuple):
    """One event to store: for whom, its kind and what it stores, and optionally its ``data``
    as that player's streams deliver it (see ``record``)."""

    user_id: int
    kind: str
    payload: dict[str, Any]
    delivered: dict[str, Any] | None = None


def record(
    user_id: int, kind: str, payload: dict[str, Any], delivered: dict[str, Any] | None = None
) -> int:
    """Store an event for one player and wake their open streams; its number.

    ``delivered``: the event's ``data`` as this player's streams deliver it, when the caller
    already has it (a match event with the player's view, rendered in the move's transaction):
    it rides along with the wake-up, and a stream whose previous event was the one before
    sends it without reading the database. Never stored: the log keeps no cards."""
    return record_all([Entry(user_id, kind, payload, delivered)])[0]


def record_all(entries: list[Entry]) -> list[int]:
    """``record`` for several players at once (a move's event for each of its players), in
    two statements however many there are: their numbers, in the order given (none for no
    entries)."""
    events = _append_all(entries)
    for entry, event in zip(entries, events, strict=True):
        message: dict[str, Any] = {"type": "player.event", "seq": event.seq}
        # Any event but a match's is delivered as it is stored (``deliver``): it rides along.
        delivered = entry.delivered
        if delivered is None and entry.kind != "match":
            delivered = _as_stored(entry.payload)
        if delivered is not None:
            message["line"] = _as_delivered(event, delivered)
        # After the commit: a stream woken before it would not find the event yet.
        group_send_after_commit(group_name(entry.user_id), message)
    transaction.on_commit(_maybe_purge)
    return [event.seq for event in events]


# --- Reading and delivering ---------------------------------------------------------------------


def last_seq(user_id: int) -> int:
    return PlayerEvent.objects.filter(user_id=user_id).aggregate(m=Max("seq"))["m"] or 0


def last_seqs(user_ids: Iterable[int]) -> dict[int, int]:
    """``last_seq`` of many players in one statement (those with no event are left out)."""
    found = PlayerEvent.objects.filter(user_id__in=list(user_ids)).values("user_id")
    return dict(found.annotate(m=Max("seq")).order_by().values_list("user_id", "m"))


class SinceAhead(Refused, code="since_ahead"):
    """A ``since`` past the player's last event: no event would come until the log caught up
    with it, so a stream would stay silent however much happened."""


def check_since(user_id: int, since: int | None) -> None:
    """Refuse a cursor past the player's last event (``SinceAhead``); None (only new events)
    and any number up to the last one are fine."""
    if since is None:
        return
    last = last_seq(user_id)
    if since > last:
        raise SinceAhead(
            _(
                "since=%(since)d is past your last event (%(last)d): send at most %(last)d, "
                "or leave since out for new events only."
            )
            % {"since": since, "last": last}
        )


def first_kept(user_id: int) -> int | None:
    return PlayerEvent.objects.filter(user_id=user_id).aggregate(m=Min("seq"))["m"]


def hello(user_id: int, since: int) -> dict[str, Any]:
    """The first line of a stream: where the log stands, and whether ``since`` is still
    covered (``complete`` false: events after ``since`` were purged; refetch the state)."""
    last = last_seq(user_id)
    first = first_kept(user_id)
    complete = since >= last or first is None or first <= since + 1
    return {"type": "hello", "since": since, "last_seq": last, "complete": complete}


def fetch(user_id: int, since: int, limit: int = BATCH) -> list[PlayerEvent]:
    return list(PlayerEvent.objects.filter(user_id=user_id, seq__gt=since).order_by("seq")[:limit])


def deliver(user: AbstractBaseUser, events: list[PlayerEvent]) -> list[dict[str, Any]]:
    """Events as the reader receives them. A match event carries the reader's own view of the
    match as it is now; earlier events of the same match in one batch say ``superseded``
    instead of repeating it."""
    newest: dict[str, int] = {}
    for event in events:
        if event.kind == "match":
            newest[event.payload.get("match", "")] = event.seq
    views: dict[str, dict[str, Any] | None] = {}
    out = []
    for event in events:
        data = dict(event.payload)
        if event.kind == "match":
            public_id = data.get("match", "")
            if newest.get(public_id) != event.seq:
                data["view"] = None
                data["superseded"] = True
            else:
                if public_id not in views:
                    views[public_id] = None
                    asker = access.find(public_id, access.of_account(user))
                    if asker is not None and asker.seat is not None:
                        views[public_id] = readers.view_for(asker.match, asker.seat)
                        data["seat"] = asker.seat
                        data["status"] = asker.match.status
                data["view"] = views[public_id]
                data["superseded"] = False
        out.append(_as_delivered(event, data))
    return out


def match_data(payload: dict[str, Any], seat: int, status: str, view: Any) -> dict[str, Any]:
    """A match event's ``data`` for the player in ``seat``: what it stored, and their view."""
    return {**payload, "seat": seat, "status": status, "view": view, "superseded": False}


def _as_delivered(event: PlayerEvent, data: dict[str, Any]) -> dict[str, Any]:
    return {"type": event.kind, "seq": event.seq, "at": api_time(event.created_at), "data": data}


# --- Forgetting ---------------------------------------------------------------------------------


def purge(now: datetime | None = None) -> int:
    """Forget events older than KEEP, except each player's newest (it holds their number)."""
    cutoff = (now or timezone.now()) - KEEP
    newer = PlayerEvent.objects.filter(user_id=OuterRef("user_id"), seq__gt=OuterRef("seq"))
    deleted, _ = PlayerEvent.objects.filter(created_at__lt=cutoff).filter(Exists(newer)).delete()
    return deleted


_next_purge_try = 0.0


def _maybe_purge() -> None:
    # Each process asks the shared cache at most once a minute (not at every event recorded:
    # that was a Redis round trip per event); across processes the lock keeps one purge.
    global _next_purge_try
    if time.monotonic() < _next_purge_try:
        return
    _next_purge_try = time.monotonic() + PURGE_EVERY_SECONDS
    if cache.add(PURGE_LOCK, 1, timeout=PURGE_EVERY_SECONDS):
        try:
            purge()
            idempotency.purge()
        except Exception:
            log.exception("could not purge old events")
