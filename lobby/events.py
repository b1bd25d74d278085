"""Each player's numbered event log, for API clients (the websocket and the NDJSON stream).

Services tell this module what changed, after their transaction commits: a challenge sent or
answered, who is in the lobby, a match that moved. Each event is stored for every player it
concerns under that player's next number (1, 2, 3...), then the player's channel group hears
``{"type": "player.event", "seq": n}``, nothing more; every stream reads the events it has not
sent yet from the database. So a client that reconnects with ``since=N`` gets exactly what it
missed, and events reach streams served by any process (the Redis channel layer).

Match events store no cards. The seat's ``player_view`` is added when the event is delivered
(``deliver``), for the reader's own seat only.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import Exists, Max, Min, OuterRef
from django.utils import timezone

from lobby.models import Challenge, PlayerEvent, display_name_of

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

    from games.models import Match

log = logging.getLogger(__name__)

# Promised: at least 10 minutes. Kept longer, so a phone that slept a while still catches up.
KEEP = timedelta(hours=1)
PURGE_LOCK = "events:purge"
PURGE_EVERY_SECONDS = 60
PRESENCE_KEY = "events:presence"
# At most this many events in one catch-up read; a stream reads again until it is up to date.
BATCH = 200


def group_name(user_id: int) -> str:
    """The channel group of every event stream one player has open."""
    return f"events-{user_id}"


# --- Recording ----------------------------------------------------------------------------------


def _append(user_id: int, kind: str, payload: dict[str, Any]) -> int:
    """Store one event under the player's next number. Two writers racing for one number are
    settled by the unique (user, seq) constraint: the loser reads the maximum again."""
    for _attempt in range(20):
        last = PlayerEvent.objects.filter(user_id=user_id).aggregate(m=Max("seq"))["m"] or 0
        try:
            with transaction.atomic():
                PlayerEvent.objects.create(
                    user_id=user_id, seq=last + 1, kind=kind, payload=payload
                )
        except IntegrityError:
            continue
        return last + 1
    raise RuntimeError(f"could not number an event for user {user_id}")


def _announce(user_id: int, seq: int) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group_name(user_id), {"type": "player.event", "seq": seq})
    except Exception:  # the event is stored; a stream picks it up at its next read
        log.exception("could not announce event %s of user %s", seq, user_id)


def record(user_id: int, kind: str, payload: dict[str, Any]) -> int:
    seq = _append(user_id, kind, payload)
    _announce(user_id, seq)
    _maybe_purge()
    return seq


def _after_commit(fn: Any) -> None:
    """Run ``fn`` once the surrounding transaction commits; a failure is logged, never raised
    into the change that caused it."""

    def run() -> None:
        try:
            fn()
        except Exception:
            log.exception("could not record an event")

    transaction.on_commit(run)


# --- What services call -------------------------------------------------------------------------


def _person(user: Any) -> dict[str, str]:
    return {"username": user.get_username(), "display_name": display_name_of(user)}


def challenge_json(item: Challenge, reader_id: int) -> dict[str, Any]:
    """A challenge as the API shows it to one of its two players."""
    return {
        "id": item.pk,
        "direction": "outgoing" if item.challenger_id == reader_id else "incoming",
        "challenger": _person(item.challenger),
        "challenged": _person(item.challenged),
        "preset": item.preset,
        "target": item.target,
        "status": item.status,
        "reason": item.reason or None,
        "created_at": item.created_at.isoformat(),
        "expires_at": item.expires_at.isoformat(),
        "answered_at": item.answered_at.isoformat() if item.answered_at else None,
        "match": item.match.public_id if item.match_id and item.match else None,
    }


def _record_challenges(ids: Iterable[int]) -> None:
    items = Challenge.objects.filter(pk__in=list(ids)).select_related(
        "challenger__profile", "challenged__profile", "match"
    )
    for item in items:
        for reader in (item.challenger_id, item.challenged_id):
            record(reader, "challenge", challenge_json(item, reader))


def challenge_changed(challenge_id: int) -> None:
    """A challenge was sent (or changed): both its players hear of it after the commit."""
    _after_commit(lambda: _record_challenges([challenge_id]))


def challenges_closed_at(when: datetime) -> None:
    """Every challenge answered, cancelled or expired at ``when`` (services stamp a whole
    change with one time): both players of each hear of it after the commit."""

    def run() -> None:
        ids = Challenge.objects.filter(answered_at=when).values_list("pk", flat=True)
        _record_challenges(ids)

    _after_commit(run)


def _presence_snapshot() -> list[dict[str, Any]]:
    from django.contrib.auth import get_user_model

    from lobby import services

    online = services.online_user_ids()
    busy = services.busy_user_ids()
    users = (
        get_user_model()
        .objects.filter(pk__in=online, is_active=True)
        .select_related("profile")
        .order_by("profile__display_name")
    )
    return [{**_person(u), "busy": u.pk in busy, "_id": u.pk} for u in users]


def presence_changed() -> None:
    """Who is in the lobby may have changed: every player online hears the new list (once per
    change, however many processes noticed it)."""

    def run() -> None:
        snapshot = _presence_snapshot()
        players = [{k: v for k, v in p.items() if k != "_id"} for p in snapshot]
        digest = hashlib.sha256(json.dumps(players, sort_keys=True).encode()).hexdigest()
        if cache.get(PRESENCE_KEY) == digest:
            return
        cache.set(PRESENCE_KEY, digest, timeout=None)
        for player in snapshot:
            record(player["_id"], "presence", {"online": players})

    _after_commit(run)


def _match_players(match: Match) -> list[int]:
    from games.models import Seat

    return list(
        Seat.objects.filter(match_id=match.pk, kind=Seat.Kind.PLAYER, user__isnull=False)
        .order_by("number")
        .values_list("user_id", flat=True)
    )


def match_json(match: Match) -> dict[str, Any]:
    """What a match event stores: which match, at which version; never a card."""
    return {"match": match.public_id, "version": match.version, "status": match.status}


def match_updated(match: Match) -> None:
    """Called after the commit of any change to a match (``games.services.notify_match``)."""
    from games.models import Match as MatchModel

    row = MatchModel.objects.filter(pk=match.pk).first()
    if row is None:
        return
    payload = match_json(row)
    for user_id in dict.fromkeys(_match_players(row)):
        record(user_id, "match", payload)


def match_started(match: Match) -> None:
    """A lobby match was just made for two players: they hear of it after the commit."""
    _after_commit(lambda: match_updated(match))


# --- Reading and delivering ---------------------------------------------------------------------


def last_seq(user_id: int) -> int:
    return PlayerEvent.objects.filter(user_id=user_id).aggregate(m=Max("seq"))["m"] or 0


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
    from games import services as game_services
    from games.models import Match

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
                    match = (
                        Match.objects.filter(public_id=public_id)
                        .prefetch_related("seats__user")
                        .first()
                    )
                    seat = game_services.seat_of(match, user) if match else None
                    if match is not None and seat is not None:
                        views[public_id] = game_services.table_view(match, seat)
                        data["seat"] = seat
                        data["status"] = match.status
                data["view"] = views[public_id]
                data["superseded"] = False
        out.append(
            {
                "type": event.kind,
                "seq": event.seq,
                "at": event.created_at.isoformat(),
                "data": data,
            }
        )
    return out


def purge(now: datetime | None = None) -> int:
    """Forget events older than KEEP, except each player's newest (it holds their number)."""
    cutoff = (now or timezone.now()) - KEEP
    newer = PlayerEvent.objects.filter(user_id=OuterRef("user_id"), seq__gt=OuterRef("seq"))
    deleted, _ = PlayerEvent.objects.filter(created_at__lt=cutoff).filter(Exists(newer)).delete()
    return deleted


def _maybe_purge() -> None:
    if cache.add(PURGE_LOCK, 1, timeout=PURGE_EVERY_SECONDS):
        try:
            purge()
            from lobby import idempotency

            idempotency.purge()
        except Exception:
            log.exception("could not purge old events")
