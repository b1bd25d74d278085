"""What changes for a player who waits in the pool and plays Bea meanwhile: the offer, taken
or declined, and the switch to the person the pool found them.

The pool itself is not changed by any of it: a player playing Bea still waits there and is
paired like anyone (``lobby.pool.service``). What a Bea table shows of their place in the
pool is derived from their newest pool entry and their running match against Bea, not stored.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import services as game_services
from games.labels import level_name
from games.models import Match
from ginsite.lib.refusals import Conflict
from lobby.models import PoolEntry
from lobby.pool import service as pool

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

# Bea's level for a rating: the first band whose bound the rating is under (docs/playnow.md).
# A new player (1500) meets "medium"; each level is about 200 points of strength apart.
LEVEL_BANDS: tuple[tuple[float, str], ...] = (
    (1400, "easy"),
    (1600, "medium"),
    (1800, "hard"),
    (float("inf"), "expert"),
)


def level_for(rating: float) -> str:
    """Bea's level for a player of this rating."""
    return next(level for bound, level in LEVEL_BANDS if rating < bound)


def offer_after() -> timedelta:
    """How long a player waits in the pool before Bea is offered (``PLAYNOW_BEA_AFTER``)."""
    return timedelta(seconds=settings.PLAYNOW_BEA_AFTER)


@dataclass(frozen=True)
class Offer:
    """Bea as the waiting player's "Play now" tile shows her."""

    level: str
    seconds_left: int  # 0: she may be taken now
    ready_at: datetime
    declined: bool  # the player chose to keep waiting: the offer stays, smaller

    @property
    def level_label(self) -> str:
        return str(level_name(self.level))


# How long a "keep waiting" is remembered (the shared cache): longer than anyone waits.
DECLINE_KEPT = 3600


def _declined_key(entry: PoolEntry) -> str:
    return f"playnow:declined:{entry.pk}"


def offer_for(entry: PoolEntry | None, now: datetime | None = None) -> Offer | None:
    """Bea's offer to the player of this pool entry: for a live game only (a correspondence
    player is not sitting at the screen waiting), None otherwise."""
    if entry is None or entry.status != PoolEntry.Status.WAITING or entry.days_per_move:
        return None
    now = now or timezone.now()
    ready_at = entry.joined_at + offer_after()
    left = max(0.0, (ready_at - now).total_seconds())
    return Offer(
        level=level_for(entry.rating),
        seconds_left=int(-(-left // 1)),  # whole seconds, rounded up: 0 only once it is time
        ready_at=ready_at,
        declined=bool(cache.get(_declined_key(entry))),
    )


def _live_entry(user: AbstractBaseUser) -> PoolEntry:
    entry = pool.waiting_entry(user)
    if entry is None or entry.days_per_move:
        raise Conflict(_("Bea is offered while you wait for a live game; you are not waiting."))
    return entry


def play_bea(
    user: AbstractBaseUser,
    now: datetime | None = None,
    admit: Callable[[], None] | None = None,
) -> Match:
    """The player takes the offer: a casual match against Bea at their level, while they stay
    in the pool. A match against Bea they have running already is theirs to go back to (they
    stay in the pool all the same). Refused before the countdown is over, and when they are
    not waiting for a live game."""
    entry = _live_entry(user)
    offer = offer_for(entry, now)
    assert offer is not None
    if offer.seconds_left:
        raise Conflict(
            ngettext(
                "Bea is offered once you have waited 1 more second.",
                "Bea is offered once you have waited %(n)d more seconds.",
                offer.seconds_left,
            )
            % {"n": offer.seconds_left}
        )
    try:
        return game_services.start_bea_match(
            user, entry.preset, entry.target, offer.level, admit=admit
        )
    except game_services.BeaMatchRunning as running:
        return running.running


def decline(user: AbstractBaseUser) -> None:
    """The player keeps waiting without Bea: the offer stays on the tile, smaller."""
    entry = _live_entry(user)
    cache.set(_declined_key(entry), True, timeout=DECLINE_KEPT)


# --- At Bea's table -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Place:
    """What a player playing Bea is told of the pool: still ``waiting`` (for ``rules``), or
    ``paired`` with ``opponent`` at ``match``; None when neither."""

    state: str
    entry: PoolEntry
    match: Match | None = None

    @property
    def opponent(self) -> str:
        return self.entry.opponent.profile.display_name if self.entry.opponent else ""


def place_of(user: AbstractBaseUser, table: Match | None = None) -> Place | None:
    """The pool as a player sees it from a table against Bea (running or just finished: a
    person found while the player was finishing her match still waits for them); or, from
    ``table``, the lobby match the pool seated them at, whether their opponent is still at
    Bea's table (``opponent_at_bea``)."""
    if not getattr(user, "is_authenticated", False):
        return None
    entry = pool.last_entry(user)
    if entry is None or entry.days_per_move:
        return None
    if table is not None:
        if (
            entry.status == PoolEntry.Status.PAIRED
            and entry.match_id == table.pk
            and table.is_active
            and entry.opponent is not None
            and game_services.running_bea_match(entry.opponent) is not None
        ):
            return Place("opponent_at_bea", entry, table)
        return None
    if entry.status == PoolEntry.Status.WAITING:
        return Place("waiting", entry)
    match = entry.match
    if entry.status == PoolEntry.Status.PAIRED and match is not None and match.is_active:
        return Place("paired", entry, match)
    return None


def switch(user: AbstractBaseUser) -> Match:
    """The player goes to the person the pool found them: their match against Bea (if still
    running) ends counting for nobody; the match to go to. Refused when nobody waits."""
    entry = pool.last_entry(user)
    match = entry.match if entry is not None else None
    if (
        entry is None
        or entry.status != PoolEntry.Status.PAIRED
        or match is None
        or not match.is_active
    ):
        raise Conflict(_("Nobody from the pool is waiting for you at a table."))
    running = game_services.running_bea_match(user)
    if running is not None:
        seat = next(s.number for s in running.seats.all() if s.user_id == user.pk)
        with contextlib.suppress(game_services.MatchClosed):  # ended meanwhile: nothing to do
            game_services.set_aside(running, seat, game_services.CURRENT)
    return match


def opponent_of(user: AbstractBaseUser, match: Match) -> AbstractBaseUser | None:
    """The other player of a lobby match the pool seated ``user`` at."""
    seat = next((s for s in match.seats.all() if s.user_id not in (None, user.pk)), None)
    return seat.user if seat is not None else None
