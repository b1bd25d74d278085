"""Who is in the lobby: the one home of the lobby's presence.

Each open lobby page, table page or event stream of a signed-in player, and their recent page
views and API requests, is a ``Presence`` row seen at a time (``seen``, ``heartbeat``,
``left``); a player is online while one of their rows is fresh. The sweep drops quiet rows and
what their players leave behind (open challenges, seeks). Also the questions everyone asks
(who is online, who is busy in a lobby match, who is hidden from whom, the players list) and
the one shared note the event streams read to say how many are online.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, NamedTuple

from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games.live.presence import LOBBY_MATCH_IDLE, in_lobby_match
from lobby import lookups
from lobby.broadcast import publish
from lobby.events import feeds as event_feeds
from lobby.models import Block, Challenge, Presence, Seek
from lobby.people import completion

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

# A page that has not said anything for this long is gone, whether or not its close arrived.
PRESENCE_TTL = timedelta(seconds=45)
# The page's heartbeat: well inside the TTL, so one lost beat does not drop anybody.
HEARTBEAT_SECONDS = 20
# A cleanly closed page keeps counting this long, so that a reload (close, then connect a
# moment later) neither flickers in the players list nor expires the player's challenges.
CLOSE_GRACE = timedelta(seconds=10)
# Heartbeats trigger the sweep; across all workers it runs at most once per this many seconds.
SWEEP_EVERY_SECONDS = 10
SWEEP_LOCK = "lobby:sweep"
# An open correspondence seek stays this long, whether or not its poster is in the lobby (a
# live one goes when they leave). A correspondence challenge has its own ``expires_at``.
CORRESPONDENCE_SEEK_TTL = timedelta(days=7)
# Games decides who is busy in a lobby match (it refuses to seat anyone twice); the lobby shows it.
MATCH_IDLE = LOBBY_MATCH_IDLE


def online_user_ids(now: datetime | None = None) -> set[int]:
    cutoff = (now or timezone.now()) - PRESENCE_TTL
    return set(
        Presence.objects.filter(last_seen__gt=cutoff).values_list("user_id", flat=True).distinct()
    )


def is_online(user_id: int, now: datetime | None = None) -> bool:
    cutoff = (now or timezone.now()) - PRESENCE_TTL
    return Presence.objects.filter(user_id=user_id, last_seen__gt=cutoff).exists()


def is_connected(user_id: int, now: datetime | None = None) -> bool:
    """Whether a page or stream of ``user_id`` is open now (a socket, an event stream), as
    opposed to a recent plain request: a notification is for a player who would not see it."""
    cutoff = (now or timezone.now()) - PRESENCE_TTL
    rows = Presence.objects.filter(user_id=user_id, last_seen__gt=cutoff)
    return rows.exclude(channel_name=_http_channel(user_id)).exists()


def hidden_from(user_id: int) -> set[int]:
    """The players ``user_id`` does not see in the lobby and is not seen by: those they
    blocked and those who blocked them. The one rule of the HTML lobby, the API and the
    challenge refusal: a block works both ways and shows nowhere, so a blocked player cannot
    tell it from the other being away."""
    pairs = Block.objects.filter(Q(blocker_id=user_id) | Q(blocked_id=user_id)).values_list(
        "blocker_id", "blocked_id"
    )
    return {other for pair in pairs for other in pair if other != user_id}


def busy_user_ids(now: datetime | None = None, among: Iterable[int] | None = None) -> set[int]:
    """Players (of ``among``, when given) seated in a lobby match that is still going (and
    not long abandoned)."""
    return in_lobby_match(among, now=now)


class OnlinePlayers(NamedTuple):
    """The players list of one viewer: the accounts (with their profiles, by display name),
    who of everyone is busy in a lobby match, and each listed player's completion."""

    users: list[Any]
    busy: set[int]
    completion: dict[int, int | None]


def online_players(viewer_id: int, now: datetime | None = None) -> OnlinePlayers:
    """Who ``viewer_id`` sees in the lobby now: the lobby page's players list and
    ``GET /players/online`` alike. Neither side of a block sees the other (``hidden_from``)."""
    online = online_user_ids(now) - hidden_from(viewer_id)
    users = list(
        get_user_model()
        .objects.filter(pk__in=online, is_active=True)
        .select_related("profile")
        .order_by("profile__display_name")
    )
    return OnlinePlayers(users, busy_user_ids(now), completion.of_players(online))


# --- Being here ---------------------------------------------------------------------------------


def seen(user: AbstractBaseUser, channel_name: str) -> bool:
    """Record that a page of ``user`` is alive. True when the user has just come online."""
    now = timezone.now()
    was_online = lookups.mark_seen(user.pk, channel_name, now, now - PRESENCE_TTL)
    if was_online is None:
        return False  # its row still counted: online, and it stays so
    if not was_online:
        publish(["players", "challenges", "seeks"])
        transaction.on_commit(note_change, robust=True)
    return not was_online


def seen_over_http(user: AbstractBaseUser) -> None:
    """A lobby page view, a form post or an API request counts as presence too, so the page
    works without JS and an API client is in the lobby while it acts there."""
    seen(user, _http_channel(user.pk))


def _http_channel(user_id: int) -> str:
    return f"http:{user_id}"


def left(channel_name: str) -> None:
    """A page closed its socket. It keeps counting for CLOSE_GRACE (see there), then the sweep
    drops it like any page that went quiet."""
    Presence.objects.filter(channel_name=channel_name).update(
        last_seen=timezone.now() - PRESENCE_TTL + CLOSE_GRACE
    )


def heartbeat(user: AbstractBaseUser, channel_name: str) -> None:
    seen(user, channel_name)
    sweep()


def heartbeat_all(rows: dict[str, AbstractBaseUser]) -> None:
    """``heartbeat`` for many pages or streams at once (their presence rows, and the user of
    each): those that still count in one statement, the others one by one (``seen``)."""
    now = timezone.now()
    names = list(rows)
    fresh = Presence.objects.filter(channel_name__in=names, last_seen__gt=now - PRESENCE_TTL)
    if fresh.update(last_seen=now) < len(names):
        beaten = set(
            Presence.objects.filter(channel_name__in=names, last_seen=now).values_list(
                "channel_name", flat=True
            )
        )
        for name in set(names) - beaten:
            seen(rows[name], name)
    sweep()


def sweep(*, force: bool = False) -> bool:
    """Drop quiet pages, expire the challenges of players who left (and stale ones) and
    orphaned seeks, and tell the lobby.

    Runs at most once per SWEEP_EVERY_SECONDS across all processes (the lock is in the shared
    cache) unless forced. True when something changed.
    """
    if not force and not cache.add(SWEEP_LOCK, 1, timeout=SWEEP_EVERY_SECONDS):
        return False
    now = timezone.now()
    with transaction.atomic():
        dropped = Presence.objects.filter(last_seen__lte=now - PRESENCE_TTL).delete()[0]
        online = online_user_ids(now)
        # A live challenge goes when its challenger leaves; a correspondence one waits.
        expired = (
            Challenge.objects.filter(status=Challenge.Status.OPEN)
            .filter(
                Q(expires_at__lte=now)
                | Q(days_per_move__isnull=True) & ~Q(challenger_id__in=online)
            )
            .update(status=Challenge.Status.EXPIRED, answered_at=now)
        )
        if expired:
            event_feeds.challenges_closed_at(now)
        orphaned = (
            Seek.objects.filter(status=Seek.Status.OPEN)
            .filter(
                Q(days_per_move__isnull=True) & ~Q(poster_id__in=online)
                | Q(created_at__lte=now - CORRESPONDENCE_SEEK_TTL)
            )
            .update(status=Seek.Status.EXPIRED)
        )
        changed = []
        if dropped:
            changed += ["players"]
            transaction.on_commit(note_change, robust=True)
        if expired:
            changed += ["challenges", "players"]
        if orphaned:
            changed += ["seeks"]
        if changed:
            publish(changed)
    return bool(changed)


# --- The streams' note ----------------------------------------------------------------------------

# The streams' presence line: how many are online and since when, kept in the shared cache
# by whoever changed it (a player came online, the sweep dropped one). One small note, read by
# every stream at its own pace: a connect costs O(1), not a message to everyone online.
SNAPSHOT_KEY = "lobby:presence"


def note_change() -> None:
    """Who is in the lobby changed: update the note the event streams read."""
    cutoff = timezone.now() - PRESENCE_TTL
    online = Presence.objects.filter(last_seen__gt=cutoff).values("user_id").distinct().count()
    cache.set(SNAPSHOT_KEY, {"at": time.time(), "online": online}, timeout=None)


def snapshot() -> dict[str, Any] | None:
    """The latest note: ``{"at": unix time, "online": count}``, or None before any change."""
    return cache.get(SNAPSHOT_KEY)  # type: ignore[no-any-return]
