"""Who may play whom, and the match two players agreed on: what every challenge and seek checks.

A change that may seat players (an accept) or hand them something to accept (a challenge, a
seek) first locks those players' rows, in one order (``games.services.lock_players``), and only
then checks whether they are free: two accepts of one player queue instead of deadlocking, and
the second one is refused (409) because the first one seated the player. A match is only ever
created through ``games.services.create_match``.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils.translation import gettext as _

from games.models import Match, Seat
from games.services import SeatSpec, create_match, ruleset
from ginsite.lib import numbers
from ginsite.lib.refusals import Conflict, NotAllowed, NotFound, Refused
from lobby.broadcast import publish, send_to_match
from lobby.events import feeds as event_feeds
from lobby.models import Block, Challenge, PoolEntry, Seek, display_name_of
from lobby.presence import busy_user_ids, hidden_from
from lobby.ratings import results

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser


def player_named(username: str) -> Any:
    """The active account of that username (with its profile), or ``NotFound``."""
    user_model = get_user_model()
    found = (
        user_model.objects.select_related("profile")
        .filter(**{user_model.USERNAME_FIELD: username, "is_active": True})
        .first()
    )
    if found is None:
        raise NotFound(_("There is no player of that name."))
    return found


def name_of(user_id: int) -> str:
    return display_name_of(get_user_model().objects.select_related("profile").get(pk=user_id))


def check_rules(preset: str, target: Any) -> int:
    """The target as an int, or ``Refused`` for an unknown preset or target."""
    ruleset(preset)
    if isinstance(target, float) and target.is_integer():
        target = int(target)  # 100.0 is the number 100 to JSON
    number = numbers.parse(target)
    if number is None:
        raise Refused(_("The target must be one of 50, 100, 150 or 250."))
    ruleset(preset, number)
    return number


def check_free(user_ids: Iterable[int], me_id: int, days_per_move: int | None = None) -> None:
    """``Conflict`` when one of these players is in a live lobby match (``me_id`` is the
    asker). A correspondence match (``days_per_move``) may start beside one: a player has
    one live match at a time and any number of correspondence matches."""
    if days_per_move is not None:
        return
    busy = busy_user_ids(among=user_ids)
    if me_id in busy:
        raise Conflict(_("You are in a lobby match already: finish or resign it first."))
    for other_id in busy:
        raise Conflict(
            _("%(name)s is playing a lobby match right now. Try again when it is over.")
            % {"name": name_of(other_id)}
        )


def check_not_blocked(me_id: int, other_id: int) -> None:
    """Refuse a match between two players when either blocked the other. ``block`` cancels
    their open challenges under the same locks, so this is the rule said once more where a
    match is made, not a race it settles."""
    if other_id not in hidden_from(me_id):
        return
    name = name_of(other_id)
    if Block.objects.filter(blocker_id=me_id, blocked_id=other_id).exists():
        raise NotAllowed(_("You have blocked %(name)s. Unblock them first.") % {"name": name})
    # Blocked by them: to this player it is as if they had left (a block shows nowhere).
    raise Conflict(_("%(name)s has left the lobby.") % {"name": name})


def start_match(
    first: AbstractBaseUser,
    second: AbstractBaseUser,
    preset: str,
    target: int,
    now: datetime,
    hints: bool = False,
    *,
    rated: bool = False,
    days_per_move: int | None = None,
) -> Match:
    """In the caller's transaction (the players locked and found free): the match they agreed
    on, ``first`` in seat 0, played for rating if ``rated``; every other open live challenge,
    seek and place in the pool of theirs withdrawn, the lobby told, and both players' lobby
    pages sent to the table. A correspondence match (``days_per_move``) withdraws nothing
    and sends nobody anywhere: it waits for its players (the caller answers the one who
    accepted with the table; the players' "your turn" lists hear of it from games)."""
    match = new_match(
        first, second, preset, target, hints, rated=rated, days_per_move=days_per_move
    )
    if days_per_move is None:
        withdraw_elsewhere([first.pk, second.pk], now)
        send_to_match([first.pk, second.pk], match)
    else:
        # Only the challenge or seek it came from changed.
        publish(["challenges", "seeks"])
        event_feeds.challenges_closed_at(now)
    return match


def new_match(
    first: AbstractBaseUser,
    second: AbstractBaseUser,
    preset: str,
    target: int,
    hints: bool = False,
    *,
    rated: bool = False,
    days_per_move: int | None = None,
) -> Match:
    """``start_match`` without the rest: the match alone (what quick pairing seats many of in
    one transaction before it withdraws all their players' other offers at once)."""
    try:
        match = create_match(
            Match.Kind.LOBBY,
            ruleset(preset, target),
            (SeatSpec(Seat.Kind.PLAYER, user=first), SeatSpec(Seat.Kind.PLAYER, user=second)),
            hints=hints,
            days_per_move=days_per_move,
        )
    except Refused as refused:  # a player sat down elsewhere (checked first, under lock)
        raise Conflict(refused.message) from None
    if rated:
        results.mark_rated(match, preset)
    return match


def withdraw_elsewhere(players: list[int], now: datetime, *, from_pool: bool = False) -> None:
    """These players just sat down at a live match: their other open live challenges (either
    way), seeks and places in the pool are withdrawn (correspondence ones stay: they keep
    nobody at a table), and the lobby hears of what was (``from_pool``: quick pairing marked
    its own entries paired first, and touched no challenge or seek itself)."""
    cancelled = (
        Challenge.objects.filter(status=Challenge.Status.OPEN, days_per_move__isnull=True)
        .filter(Q(challenger_id__in=players) | Q(challenged_id__in=players))
        .update(status=Challenge.Status.CANCELLED, answered_at=now)
    )
    withdrawn = Seek.objects.filter(
        status=Seek.Status.OPEN, poster_id__in=players, days_per_move__isnull=True
    ).update(status=Seek.Status.CANCELLED)
    PoolEntry.objects.filter(
        status=PoolEntry.Status.WAITING, user_id__in=players, days_per_move__isnull=True
    ).update(status=PoolEntry.Status.CANCELLED, ended_at=now)
    # A new match reaches "matches" and "players" through games' announcement.
    if cancelled or withdrawn or not from_pool:
        publish(["challenges", "seeks"])
    if cancelled or not from_pool:
        event_feeds.challenges_closed_at(now)
