"""The lobby page's regions, rendered for one user.

Each region is a partial of ``lobby/lobby.html`` with a stable id. The full page renders them
all; an htmx answer and a websocket push render the named ones with ``oob`` set, for the user
who will see them (their own challenges, their blocks, their buttons). Nothing here is sent to
a group: the group only learns region names.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.db.models import Count, F, Q
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.labels import PRESET_NAMES
from games.live import correspondence
from games.models import Match, Seat
from games.services import TARGETS
from lobby import presence
from lobby.accounts.bots import bot_in
from lobby.broadcast import REGIONS
from lobby.models import Challenge, PoolEntry, Seek, display_name_of
from lobby.people import completion, friends
from lobby.playnow import offer as playnow_offer
from lobby.pool import pairs as pool_pairs
from lobby.pool import service as pool
from lobby.ratings import aborts
from lobby.ratings.models import Rating
from lobby.ratings.reads import display_of_many, ratings_of_many
from lobby.services import ANSWER_SHOWN

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser
    from django.http import HttpRequest

TEMPLATE = "lobby/lobby.html"
REASON_TEXT = {
    Challenge.Reason.LATER.value: _("maybe later"),
    Challenge.Reason.RULES.value: _("different rules, please"),
    Challenge.Reason.TARGET.value: _("different target, please"),
    Challenge.Reason.NOT_INTERESTED.value: _("not interested"),
}


def _stats(user_ids: Iterable[int]) -> dict[int, dict[str, int]]:
    """Matches played and won per player, in one query (the profile page has the full set)."""
    rows = (
        Seat.objects.filter(user_id__in=list(user_ids), kind=Seat.Kind.PLAYER)
        .exclude(match__status=Match.Status.ACTIVE)
        .values("user_id")
        .annotate(
            played=Count("match", distinct=True),
            won=Count("match", filter=Q(number=F("match__winner_seat")), distinct=True),
        )
    )
    return {row["user_id"]: {"played": row["played"], "won": row["won"]} for row in rows}


def rules_label(
    preset: str,
    target: int,
    hints: bool = False,
    rated: bool = False,
    days_per_move: int | None = None,
) -> str:
    label = str(
        _("%(preset)s to %(target)s")
        % {"preset": PRESET_NAMES.get(preset, preset), "target": target}
    )
    if days_per_move:
        label = f"{label}, {correspondence.days_label(days_per_move)}"
    if hints:
        label = str(_("%(rules)s, with hints") % {"rules": label})
    return str(_("%(rules)s, rated") % {"rules": label}) if rated else label


def _rating_in(user_id: int, preset: str, shown: dict[int, dict[str, Rating]]) -> str:
    """A player's rating in the preset at stake, as shown: "1532", "1500?"."""
    rating = shown[user_id].get(preset)
    return rating.display if rating is not None else ""


def players_context(user: AbstractBaseUser, now: datetime) -> dict[str, Any]:
    listed = presence.online_players(user.pk, now)
    stats = _stats(other.pk for other in listed.users)
    ratings = display_of_many([other.pk for other in listed.users], "standard")
    players = []
    for other in listed.users:
        row = stats.get(other.pk, {"played": 0, "won": 0})
        players.append(
            {
                "user": other,
                "name": display_name_of(other),
                "username": other.get_username(),
                "is_me": other.pk == user.pk,
                "busy": other.pk in listed.busy,
                "played": row["played"],
                "won": row["won"],
                "completion": listed.completion.get(other.pk),
                "rating": ratings[other.pk],
            }
        )
    # Me first, then everyone by name: the list is for finding someone else.
    players.sort(key=lambda p: (not p["is_me"], p["name"].lower()))
    return {
        "players": players,
        "me_busy": user.pk in listed.busy,
        "completion_last": completion.LAST,
    }


def friends_context(user: AbstractBaseUser, now: datetime) -> dict[str, Any]:
    """The players this user follows, online ones first, with a one-click challenge each."""
    rows = friends.friends(user, now)
    return {
        "friends": rows,
        "friends_online": sum(1 for row in rows if row["online"]),
        "me_busy": user.pk in presence.busy_user_ids(now),
    }


def challenges_context(user: AbstractBaseUser, now: datetime) -> dict[str, Any]:
    online = presence.online_user_ids(now)
    base = Challenge.objects.select_related("challenger__profile", "challenged__profile")
    # A counter-proposal to this player is shown with the challenge it answers (below).
    incoming = [
        c
        for c in base.filter(
            challenged=user, status=Challenge.Status.OPEN, expires_at__gt=now, counter_to=None
        )
        # A live challenge needs its challenger here; a correspondence one waits.
        if c.challenger_id in online or c.days_per_move
    ]
    # The challenger sees their open challenges, and for a while what became of the others.
    sent = (
        base.select_related("counter")
        .filter(challenger=user)
        .filter(
            Q(status=Challenge.Status.OPEN, expires_at__gt=now)
            | Q(
                status__in=[Challenge.Status.DECLINED, Challenge.Status.EXPIRED],
                answered_at__gt=now - ANSWER_SHOWN,
            )
        )
    )
    shown = ratings_of_many([c.challenger_id for c in incoming])
    outgoing = []
    for c in sent:
        outgoing.append(
            {
                "challenge": c,
                "name": display_name_of(c.challenged),
                "rules": rules_label(c.preset, c.target, c.hints, c.rated, c.days_per_move),
                "open": c.status == Challenge.Status.OPEN,
                "reason": REASON_TEXT.get(c.reason, ""),
                # This row is itself a counter-proposal of this player's.
                "proposal": c.counter_to_id is not None,
                "counter": _counter_context(c, online, now),
            }
        )
    return {
        "incoming": [
            {
                "challenge": c,
                "name": display_name_of(c.challenger),
                "rating": _rating_in(c.challenger_id, c.preset, shown),
                "rules": rules_label(c.preset, c.target, c.hints, c.rated, c.days_per_move),
                "seconds_left": max(0, int((c.expires_at - now).total_seconds())),
                # Days, not seconds: in words, with no countdown.
                "expires_in": correspondence.time_left_words(c.expires_at - now)
                if c.days_per_move
                else "",
                # lobby.js counts down from this.
                "expires": c.expires_at.isoformat(),
                "form_id": f"counter-{c.pk}",
            }
            for c in incoming
        ],
        "outgoing": outgoing,
        "reasons": Challenge.Reason.choices,
    }


def _counter_context(item: Challenge, online: set[int], now: datetime) -> dict[str, Any] | None:
    """The counter-proposal a declined challenge came back with, for its challenger."""
    try:
        counter = item.counter
    except Challenge.DoesNotExist:
        return None
    is_open = (
        counter.status == Challenge.Status.OPEN
        and counter.expires_at > now
        and (counter.challenger_id in online or bool(counter.days_per_move))
    )
    return {
        "challenge": counter,
        "rules": rules_label(
            counter.preset, counter.target, counter.hints, counter.rated, counter.days_per_move
        ),
        "open": is_open,
        "seconds_left": max(0, int((counter.expires_at - now).total_seconds())),
        "expires_in": correspondence.time_left_words(counter.expires_at - now)
        if counter.days_per_move
        else "",
        "expires": counter.expires_at.isoformat(),
    }


def seeks_context(user: AbstractBaseUser, now: datetime) -> dict[str, Any]:
    online = presence.online_user_ids(now)
    hidden = presence.hidden_from(user.pk)
    seeks = []
    mine = None
    found = list(Seek.objects.filter(status=Seek.Status.OPEN).select_related("poster__profile"))
    shown = ratings_of_many([s.poster_id for s in found])
    for seek in found:
        if seek.poster_id == user.pk:
            mine = seek
        elif seek.poster_id in hidden or (
            seek.poster_id not in online and seek.days_per_move is None
        ):
            continue
        seeks.append(
            {
                "seek": seek,
                "name": display_name_of(seek.poster),
                "rating": _rating_in(seek.poster_id, seek.preset, shown),
                "rules": rules_label(
                    seek.preset, seek.target, rated=seek.rated, days_per_move=seek.days_per_move
                ),
                "mine": seek.poster_id == user.pk,
            }
        )
    return {"seeks": seeks, "my_seek": mine}


def matches_context(user: AbstractBaseUser, now: datetime) -> dict[str, Any]:
    recent = (
        Match.objects.filter(
            kind=Match.Kind.LOBBY,
            status=Match.Status.ACTIVE,
            updated_at__gt=now - presence.MATCH_IDLE,
        )
        # Neither side of a block sees the other's matches (nor may watch them: games.access).
        .exclude(seats__user_id__in=presence.hidden_from(user.pk))
        .prefetch_related("seats__user__profile")
        .order_by("-updated_at")[:50]
    )
    matches = []
    for match in recent:
        seats = list(match.seats.all())
        scores = list(match.scores or [0, 0])
        matches.append(
            {
                "match": match,
                "names": [seat.display_name for seat in seats],
                "bots": [bot_in(getattr(seat.user, "profile", None), match) for seat in seats],
                "scores": scores,
                "target": (match.rules or {}).get("target"),
                "mine": any(seat.user_id == user.pk for seat in seats),
            }
        )
    return {"matches": matches}


def pool_context(user: AbstractBaseUser, now: datetime) -> dict[str, Any]:
    """The "Play now" tiles (and the wait before the next lobby match, after too many aborts),
    or the player's place in the pool: since when, and why no one has been found yet."""
    entry = pool.waiting_entry(user)
    if entry is None:
        wait = aborts.wait_of(user.pk, now)
        return {
            "pool_entry": None,
            "pool_me_busy": user.pk in presence.busy_user_ids(now),
            # Too many aborts: the wait, said above the buttons it holds back.
            "lobby_wait": wait.message(now) if wait else "",
        }
    others = (
        PoolEntry.objects.filter(
            status=PoolEntry.Status.WAITING,
            preset=entry.preset,
            target=entry.target,
            rated=entry.rated,
            days_per_move=entry.days_per_move,
        )
        .exclude(user_id=user.pk)
        .exclude(user_id__in=presence.hidden_from(user.pk))
        .count()
    )
    return {
        "pool_entry": entry,
        "pool_rules": rules_label(
            entry.preset, entry.target, rated=entry.rated, days_per_move=entry.days_per_move
        ),
        "pool_since": entry.joined_at.isoformat(),
        "pool_seconds": max(0, int((now - entry.joined_at).total_seconds())),
        "pool_others": others,
        "pool_window": pool_pairs.window(entry.joined_at, now),
        "pool_rating": round(entry.rating),
        "pool_window_max": pool_pairs.WINDOW_MAX,
        # Bea while you wait (lobby.playnow): the countdown, then the offer.
        "pool_bea": playnow_offer.offer_for(entry, now),
    }


def turns_context(user: AbstractBaseUser, now: datetime) -> dict[str, Any]:
    """The correspondence matches waiting for this player's move, least time left first, and
    how many others wait for their opponents."""
    turns = correspondence.your_turn(user, now)
    return {
        "turns": turns,
        "turns_waiting": correspondence.waiting_count(user) - len(turns),
    }


BUILDERS = {
    "turns": turns_context,
    "pool": pool_context,
    "friends": friends_context,
    "players": players_context,
    "challenges": challenges_context,
    "seeks": seeks_context,
    "matches": matches_context,
    # The site's arenas: the template tag (lobby.arena) reads them, the lobby knows nothing.
    "arenas": lambda user, now: {},
}


def lobby_context(
    user: AbstractBaseUser, names: Iterable[str] = REGIONS, **extra: Any
) -> dict[str, Any]:
    """Everything the named regions of ``user``'s lobby page need."""
    now = timezone.now()
    context: dict[str, Any] = {
        "presets": list(PRESET_NAMES.items()),
        "targets": TARGETS,
        "days_choices": correspondence.DAYS_CHOICES,
        "heartbeat_seconds": presence.HEARTBEAT_SECONDS,
    }
    for name in names:
        context.update(BUILDERS[name](user, now))
    context.update(extra)
    return context


def render_regions(
    user: AbstractBaseUser,
    names: Iterable[str],
    *,
    request: HttpRequest | None = None,
    csrf_token: str = "",
    notice: str = "",
    notice_level: str = "",
) -> str:
    """The named regions as out-of-band swaps (plus the notice when there is one)."""
    wanted = [name for name in REGIONS if name in set(names)]
    context = lobby_context(user, wanted, oob=True, notice=notice, notice_level=notice_level)
    context["user"] = user
    if csrf_token:
        context["csrf_token"] = csrf_token
    parts = [render_to_string(f"{TEMPLATE}#{name}", context, request=request) for name in wanted]
    if notice or request is not None:
        parts.insert(0, render_to_string(f"{TEMPLATE}#notice", context, request=request))
    return "".join(parts)
