"""Arenas' one door (docs/arenas.md): joining, pausing, leaving, the standings (read in
``standings``), the pairing pass (``pairing``), the points of a match that ended, and the end of
an arena. Pages, the API and the sweep call these and change arenas nowhere else.

The pairing pass runs after a join and at every worker's sweep, which a match's end wakes
(``hooks``): the next pairing does not wait for a tick. A match's points are counted in the
transaction that ends it, once (``ArenaMatch.counted_at``), under the lock of both players'
arena rows.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from games.models import Match
from games.services import lock_players
from ginsite.lib.apikit import api_time
from ginsite.lib.refusals import Conflict, NotAllowed, NotFound
from lobby.events import log as event_log
from lobby.ratings import aborts, eligibility
from lobby.ratings.glicko import START_RATING
from lobby.ratings.models import Rating
from lobby.ratings.results import played_enough
from lobby.webpush.delivery import Notice
from lobby.webpush.delivery import send as send_push

from . import points as scoring
from . import schedule
from .models import ENDING as ENDING  # the door's names for what pages and the API read
from .models import OVER as OVER
from .models import RUNNING, Arena, ArenaMatch, ArenaPlayer, phase
from .models import UPCOMING as UPCOMING
from .pairing import pair, plays_by_bot, wake_sweep
from .push import arena_changed, list_changed
from .standings import Standing, counted_players, standings
from .standings import rank_of as rank_of
from .standings import running_matches as running_matches

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

# An arena holds at most this many players (a page and a pass over them stay cheap).
MAX_PLAYERS = 1000
# The endings that leave the match to the other player.
_GIVEN_UP = frozenset({Match.Status.RESIGNED, Match.Status.ABANDONED, Match.Status.TIMED_OUT})


def find(public_id: str) -> Arena:
    arena = Arena.objects.filter(public_id=str(public_id)[:24]).first()
    if arena is None:
        raise NotFound(_("There is no such arena."))
    return arena


def listed(*, limit: int = 10) -> list[Arena]:
    """The site's arenas that are not over (to come, running, or playing out their last
    matches), soonest first (private arenas are reached by their link only). An arena leaves the
    list when it is over, and the lists on the pages hear it (``push.list_changed``)."""
    found = Arena.objects.filter(kind=Arena.Kind.SCHEDULED, finished_at__isnull=True)
    return list(found.order_by("starts_at", "pk")[:limit])


def place_of(user: AbstractBaseUser, arena: Arena) -> ArenaPlayer | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return ArenaPlayer.objects.filter(arena=arena, user_id=user.pk).first()


# --- Joining, pausing, leaving ------------------------------------------------------------------


def join(user: AbstractBaseUser, arena: Arena, now: datetime | None = None) -> ArenaPlayer:
    """Take a place in the arena, or come back to it after a pause: paired as soon as it runs
    and someone fits. Refused once it has ended, for a bot where bots may not play, for a
    player a moderator took out of it, and for rated play's entry rules in a rated arena."""
    clock = now
    now = now or timezone.now()
    if now >= arena.ends_at or arena.finished_at is not None:
        raise Conflict(_("This arena is over."))
    is_bot = plays_by_bot(user)
    if is_bot and not arena.allow_bots:
        raise NotAllowed(_("Bots may not play in this arena."))
    if arena.rated:
        eligibility.check(user.pk)
    aborts.check(user.pk)
    with transaction.atomic():
        lock_players([user.pk])
        player = (
            ArenaPlayer.objects.select_for_update().filter(arena=arena, user_id=user.pk).first()
        )
        if player is not None and player.removed:
            raise NotAllowed(_("You may not play in this arena any more."))
        if player is None:
            if ArenaPlayer.objects.filter(arena=arena).count() >= MAX_PLAYERS:
                raise Conflict(_("This arena is full."))
            try:
                with transaction.atomic():
                    player = ArenaPlayer.objects.create(
                        arena=arena,
                        user_id=user.pk,
                        rating=_rating(user.pk, arena.preset),
                        is_bot=is_bot,
                        joined_at=now,
                        free_since=now,
                    )
            except IntegrityError:  # joined twice at once: the other join made the row
                player = ArenaPlayer.objects.get(arena=arena, user_id=user.pk)
        elif player.paused:
            player.paused = False
            if not _playing(arena, user.pk):
                player.free_since = now
            player.save(update_fields=["paused", "free_since"])
        arena_changed(arena)
    if phase(arena, now) == RUNNING:
        pair(arena, clock)
    player.refresh_from_db()
    return player


def pause(user: AbstractBaseUser, arena: Arena, now: datetime | None = None) -> ArenaPlayer:
    """Stop being paired (a match being played goes on and counts); ``join`` comes back."""
    with transaction.atomic():
        player = _own_place(user, arena)
        if player.paused:
            raise Conflict(_("You are paused already."))
        player.paused = True
        player.save(update_fields=["paused"])
        arena_changed(arena)
    return player


def leave(user: AbstractBaseUser, arena: Arena, now: datetime | None = None) -> None:
    """Give up the place: before the start it is gone; once the arena runs the points stay
    (as on lichess) and the player is paused."""
    now = now or timezone.now()
    with transaction.atomic():
        player = _own_place(user, arena)
        if now < arena.starts_at:
            player.delete()
        elif not player.paused:
            player.paused = True
            player.save(update_fields=["paused"])
        arena_changed(arena)


def _own_place(user: AbstractBaseUser, arena: Arena) -> ArenaPlayer:
    player = ArenaPlayer.objects.select_for_update().filter(arena=arena, user_id=user.pk).first()
    if player is None or player.removed:
        raise Conflict(_("You are not playing in this arena."))
    if arena.finished_at is not None:
        raise Conflict(_("This arena is over."))
    return player


def _rating(user_id: int, preset: str) -> float:
    found = Rating.objects.filter(user_id=user_id, preset=preset).values_list("rating", flat=True)
    return float(found.first() or START_RATING)


def _playing(arena: Arena, user_id: int) -> bool:
    return playing_now(arena, user_id) is not None


def playing_now(arena: Arena, user_id: int) -> Match | None:
    """The player's match in this arena still being played, if any."""
    running = ArenaMatch.objects.filter(arena=arena, counted_at__isnull=True)
    found = running.filter(Q(first_id=user_id) | Q(second_id=user_id)).select_related("match")
    played = found.first()
    return played.match if played is not None else None


# --- What a match counted for --------------------------------------------------------------------


def count(match_id: int, now: datetime | None = None) -> ArenaMatch | None:
    """In the transaction that ends an arena's match: its points, once (see ``points``); the
    arena match, or None when the match is no arena's or was counted before."""
    now = now or timezone.now()
    found = ArenaMatch.objects.select_for_update().filter(match_id=match_id, counted_at=None)
    played = found.select_related("arena", "match").first()
    if played is None:
        return None
    arena, match = played.arena, played.match
    users = (played.first_id, played.second_id)
    rows = {
        p.user_id: p
        for p in ArenaPlayer.objects.select_for_update().filter(arena=arena, user_id__in=users)
    }
    first, second = rows[users[0]], rows[users[1]]
    gained = [0, 0]
    winner = match.winner_seat
    if match.status == Match.Status.RESTARTED or winner is None or not played_enough(match.pk):
        played.outcome = "abort"
        if match.status in _GIVEN_UP and winner is not None:
            # Whoever gave up a match before it was played pauses (they walked away).
            (first, second)[1 - winner].paused = True
    else:
        played.outcome = "win"
        won, lost = (first, second) if winner == 0 else (second, first)
        gained[winner] = scoring.win_points(won.streak)
        won.points += gained[winner]
        won.streak += 1
        won.wins += 1
        won.scored_at = now
        lost.streak = 0
        for me, other in ((won, lost), (lost, won)):
            me.games += 1
            me.opponents_rating += other.rating
        if match.status == Match.Status.TIMED_OUT:
            lost.paused = True  # away: not paired again until they come back
    for me, other in ((first, second), (second, first)):
        me.free_since = now if now < arena.ends_at else None
        me.last_opponent_id = other.user_id
    ArenaPlayer.objects.bulk_update(
        [first, second],
        [
            "points",
            "streak",
            "wins",
            "games",
            "opponents_rating",
            "scored_at",
            "free_since",
            "paused",
            "last_opponent",
        ],
    )
    played.winner_seat = winner if played.outcome == "win" else None
    played.first_points, played.second_points = gained
    played.counted_at = now
    played.save(
        update_fields=["outcome", "winner_seat", "first_points", "second_points", "counted_at"]
    )
    arena_changed(arena)
    transaction.on_commit(wake_sweep)
    return played


# --- The end ------------------------------------------------------------------------------------


def finish(arena: Arena, now: datetime | None = None) -> bool:
    """Close an arena whose end has come once no match started before it is still played:
    whether it closed now (the podium stands from here on)."""
    now = now or timezone.now()
    if now < arena.ends_at or arena.finished_at is not None:
        return False
    if ArenaMatch.objects.filter(arena=arena, counted_at__isnull=True).exists():
        return False
    with transaction.atomic():
        closed = Arena.objects.filter(pk=arena.pk, finished_at__isnull=True).update(finished_at=now)
        if not closed:
            return False
        arena.finished_at = now
        if arena.kind == Arena.Kind.SCHEDULED:
            list_changed()
        ArenaPlayer.objects.filter(arena=arena).update(free_since=None)
        places = {s.player.user_id: s.rank for s in standings(arena)}
        event_log.record_all(
            [
                event_log.Entry(user_id, "arena", arena_event(arena, "finished", rank))
                for user_id, rank in places.items()
            ]
        )
        arena_changed(arena)
    return True


def podium(arena: Arena) -> list[Standing]:
    return standings(arena, limit=3) if arena.finished_at is not None else []


def arena_event(arena: Arena, what: str, rank: int | None = None) -> dict[str, Any]:
    return {
        "arena": arena.public_id,
        "name": arena.name,
        "event": what,
        "starts_at": api_time(arena.starts_at),
        "ends_at": api_time(arena.ends_at),
        "rank": rank,
    }


# --- Moderation -----------------------------------------------------------------------------------


def take_out(user_id: int, *, rated_only: bool) -> int:
    """A moderator's sanction: the player's places in every arena, over or not (only the rated
    ones with ``rated_only``), are removed, their points no longer counted: how many places.
    For good: lifting the sanction gives none back (docs/arenas.md, "Removed points")."""
    found = ArenaPlayer.objects.filter(user_id=user_id, removed=False)
    if rated_only:
        found = found.filter(arena__rated=True)
    arenas = list(Arena.objects.filter(pk__in=found.values("arena_id")))
    taken = found.update(removed=True, free_since=None)
    for arena in arenas:
        arena_changed(arena)
    return taken


# --- The sweep ------------------------------------------------------------------------------------


def started_now(now: datetime | None = None) -> list[Arena]:
    """Arenas whose start has come and was not told yet: each told once, on whichever worker
    gets there first (the conditional update), to the players who joined in advance (their
    event streams; Web Push through ``lobby.webpush.notifications``)."""
    now = now or timezone.now()
    due = Arena.objects.filter(announced_at=None, starts_at__lte=now, ends_at__gt=now)
    told = []
    for arena in due:
        if not Arena.objects.filter(pk=arena.pk, announced_at=None).update(announced_at=now):
            continue
        with transaction.atomic():
            players = list(counted_players(arena).select_related("user__profile"))
            event_log.record_all(
                [
                    event_log.Entry(p.user_id, "arena", arena_event(arena, "started"))
                    for p in players
                ]
            )
            for player in players:
                _push_start(arena, player.user)
            arena_changed(arena)
            if arena.kind == Arena.Kind.SCHEDULED:
                list_changed()
        told.append(arena)
    return told


def _push_start(arena: Arena, user: Any) -> None:
    """A device of a player who joined in advance hears that the arena started (Web Push, in
    their language; skipped while a page of theirs is open)."""
    language = getattr(user.profile, "language", "") or settings.LANGUAGE_CODE
    with translation.override(language):
        notice = Notice(
            title=_("The arena starts: %(name)s") % {"name": schedule.title(arena)},
            body=_("You are paired as soon as someone is free."),
            url=reverse("arena:page", args=[arena.public_id]),
            tag=f"arena-{arena.public_id}",
            ttl=300,
        )
    send_push(user.pk, notice)


def sweep(now: datetime | None = None) -> None:
    """Every worker's sweep (``games.outbox.Sweeper``): make the site's schedule a day ahead
    (``schedule``, once a minute), tell the arenas that start, pair the
    running ones' free players, and close those whose end has come and whose last match was
    counted."""
    clock = now
    if now is None:
        schedule.make_scheduled()
    now = now or timezone.now()
    started_now(now)
    free = ArenaPlayer.objects.filter(free_since__isnull=False, paused=False, removed=False)
    running = Arena.objects.filter(starts_at__lte=now, ends_at__gt=now, finished_at=None)
    for arena in running.filter(pk__in=free.values("arena_id")):
        pair(arena, clock, wake=False)
    for arena in Arena.objects.filter(ends_at__lte=now, finished_at=None):
        finish(arena, now)
