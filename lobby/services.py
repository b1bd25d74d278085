"""The lobby's one door: presence, challenges, seeks and blocks change only through here.

Every change is made in a transaction that re-checks the row it changes (a conditional update,
so two accepts of one seek cannot both win, even on SQLite without row locks), and only after
the commit tells the ``lobby`` group which regions changed. The group message names regions and
nothing else; each consumer renders them for its own user. A match is only ever created through
``games.services.create_match``.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import Match, Seat
from games.services import MoveRefused, SeatSpec, create_match, ruleset
from lobby import events
from lobby.models import Block, Challenge, Presence, Seek, display_name_of

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

log = logging.getLogger(__name__)

# A page that has not said anything for this long is gone, whether or not its close arrived.
PRESENCE_TTL = timedelta(seconds=45)
# The page's heartbeat: well inside the TTL, so one lost beat does not drop anybody.
HEARTBEAT_SECONDS = 20
# A cleanly closed page keeps counting this long, so that a reload (close, then connect a
# moment later) neither flickers in the players list nor expires the player's challenges.
CLOSE_GRACE = timedelta(seconds=10)
# Heartbeats trigger the sweep; across all workers it runs at most once per this many seconds.
SWEEP_EVERY_SECONDS = 10
CHALLENGE_TTL = timedelta(minutes=2)
# How long a challenger keeps seeing that their challenge was declined or expired.
ANSWER_SHOWN = timedelta(minutes=10)
# A lobby match nobody has moved in for this long no longer counts as "in a match": two players
# who walked away from a table must not be barred from the lobby for ever.
MATCH_IDLE = timedelta(minutes=30)

LOBBY_GROUP = "lobby"
REGIONS: tuple[str, ...] = ("players", "challenges", "seeks", "matches")
SWEEP_LOCK = "lobby:sweep"


def user_group(user_id: int) -> str:
    """The group of every lobby page one user has open (for redirects meant for them alone)."""
    return f"lobby-user-{user_id}"


class Refused(Exception):  # noqa: N818 - reads better at call sites than RefusedError
    """A lobby request turned away; nothing was changed. ``status`` is the HTTP status."""

    status = 400

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class NotAllowed(Refused):
    status = 403


class Conflict(Refused):
    status = 409


# --- Telling the lobby ------------------------------------------------------------------------


def _group_send(group: str, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception:  # a dead channel layer must never undo a committed change
        log.exception("could not send %s to %s", message.get("type"), group)


def publish(regions: Iterable[str]) -> None:
    """After the commit, tell every lobby page which regions to re-render."""
    message = {"type": "lobby.changed", "regions": sorted(set(regions))}
    transaction.on_commit(lambda: _group_send(LOBBY_GROUP, message))
    if "players" in message["regions"]:
        events.presence_changed()


def send_to_match(user_ids: Iterable[int], match: Match) -> None:
    """After the commit, send each of these users' lobby pages to the match's table."""
    url = reverse("games:table", args=[match.public_id])
    groups = [user_group(user_id) for user_id in set(user_ids)]

    def send() -> None:
        for group in groups:
            _group_send(group, {"type": "lobby.redirect", "url": url})

    transaction.on_commit(send)
    events.match_started(match)


# --- Presence ---------------------------------------------------------------------------------


def _now() -> datetime:
    return timezone.now()


def online_user_ids(now: datetime | None = None) -> set[int]:
    cutoff = (now or _now()) - PRESENCE_TTL
    return set(
        Presence.objects.filter(last_seen__gt=cutoff).values_list("user_id", flat=True).distinct()
    )


def is_online(user_id: int, now: datetime | None = None) -> bool:
    cutoff = (now or _now()) - PRESENCE_TTL
    return Presence.objects.filter(user_id=user_id, last_seen__gt=cutoff).exists()


def seen(user: AbstractBaseUser, channel_name: str) -> bool:
    """Record that a page of ``user`` is alive. True when the user has just come online."""
    now = _now()
    was_online = is_online(user.pk, now)
    try:
        with transaction.atomic():
            Presence.objects.update_or_create(
                channel_name=channel_name, defaults={"user": user, "last_seen": now}
            )
    except IntegrityError:
        # Two requests of one player created the same row at once; the other one won and
        # its timestamp is as good as ours.
        pass
    if not was_online:
        publish(["players", "challenges", "seeks"])
    return not was_online


def seen_over_http(user: AbstractBaseUser) -> None:
    """A lobby page view or form post counts as presence too, so the page works without JS."""
    seen(user, f"http:{user.pk}")


def left(channel_name: str) -> None:
    """A page closed its socket. It keeps counting for CLOSE_GRACE (see there), then the sweep
    drops it like any page that went quiet."""
    Presence.objects.filter(channel_name=channel_name).update(
        last_seen=_now() - PRESENCE_TTL + CLOSE_GRACE
    )


def heartbeat(user: AbstractBaseUser, channel_name: str) -> None:
    seen(user, channel_name)
    sweep()


def sweep(*, force: bool = False) -> bool:
    """Drop quiet pages, expire stale challenges and orphaned seeks, and tell the lobby.

    Runs at most once per SWEEP_EVERY_SECONDS across all processes (the lock is in the shared
    cache) unless forced. True when something changed.
    """
    if not force and not cache.add(SWEEP_LOCK, 1, timeout=SWEEP_EVERY_SECONDS):
        return False
    now = _now()
    with transaction.atomic():
        dropped = Presence.objects.filter(last_seen__lte=now - PRESENCE_TTL).delete()[0]
        online = online_user_ids(now)
        expired = (
            Challenge.objects.filter(status=Challenge.Status.OPEN)
            .filter(Q(expires_at__lte=now) | ~Q(challenger_id__in=online))
            .update(status=Challenge.Status.EXPIRED, answered_at=now)
        )
        if expired:
            events.challenges_closed_at(now)
        orphaned = (
            Seek.objects.filter(status=Seek.Status.OPEN)
            .exclude(poster_id__in=online)
            .update(status=Seek.Status.EXPIRED)
        )
        changed = []
        if dropped:
            changed += ["players"]
        if expired:
            changed += ["challenges", "players"]
        if orphaned:
            changed += ["seeks"]
        if changed:
            publish(changed)
    return bool(changed)


# --- Who may play whom ------------------------------------------------------------------------


def busy_user_ids(now: datetime | None = None) -> set[int]:
    """Players seated in a lobby match that is still going (and not long abandoned)."""
    since = (now or _now()) - MATCH_IDLE
    return set(
        Seat.objects.filter(
            kind=Seat.Kind.PLAYER,
            user__isnull=False,
            match__kind=Match.Kind.LOBBY,
            match__status=Match.Status.ACTIVE,
            match__updated_at__gt=since,
        ).values_list("user_id", flat=True)
    )


def blocked_between(a_id: int, b_id: int) -> bool:
    return Block.objects.filter(
        Q(blocker_id=a_id, blocked_id=b_id) | Q(blocker_id=b_id, blocked_id=a_id)
    ).exists()


def _check_rules(preset: str, target: Any) -> int:
    """The target as an int, or Refused for an unknown preset or target."""
    try:
        ruleset(preset)
        number = int(target)
        ruleset(preset, number)
    except MoveRefused as refused:
        raise Refused(refused.message) from None
    except (TypeError, ValueError):
        raise Refused(_("The target must be one of 50, 100, 150 or 250.")) from None
    return number


def _check_free(user_ids: Iterable[int], me_id: int) -> None:
    busy = busy_user_ids() & set(user_ids)
    if me_id in busy:
        raise Conflict(_("You are in a lobby match already: finish or resign it first."))
    for other_id in busy:
        raise Conflict(
            _("%(name)s is playing a lobby match right now. Try again when it is over.")
            % {"name": _name_of(other_id)}
        )


def _name_of(user_id: int) -> str:
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.select_related("profile").get(pk=user_id)
    return display_name_of(user)


def _start(first: AbstractBaseUser, second: AbstractBaseUser, preset: str, target: int) -> Match:
    """The match itself, through games' one door; ``first`` sits in seat 0."""
    return create_match(
        Match.Kind.LOBBY,
        ruleset(preset, target),
        (
            SeatSpec(Seat.Kind.PLAYER, user=first),
            SeatSpec(Seat.Kind.PLAYER, user=second),
        ),
    )


def _withdraw_open(user_ids: Iterable[int], now: datetime) -> None:
    """Two players who just sat down withdraw every other open challenge and seek of theirs."""
    ids = list(user_ids)
    Challenge.objects.filter(status=Challenge.Status.OPEN).filter(
        Q(challenger_id__in=ids) | Q(challenged_id__in=ids)
    ).update(status=Challenge.Status.CANCELLED, answered_at=now)
    Seek.objects.filter(status=Seek.Status.OPEN, poster_id__in=ids).update(
        status=Seek.Status.CANCELLED
    )


# --- Challenges -------------------------------------------------------------------------------


def challenge(
    challenger: AbstractBaseUser, challenged: AbstractBaseUser, preset: str, target: Any
) -> Challenge:
    """``challenger`` challenges ``challenged`` to a match of ``preset`` up to ``target``."""
    target = _check_rules(preset, target)
    if challenger.pk == challenged.pk:
        raise Refused(_("You cannot challenge yourself."))
    name = display_name_of(challenged)
    if Block.objects.filter(blocker=challenged, blocked=challenger).exists():
        raise NotAllowed(_("%(name)s is not taking challenges from you.") % {"name": name})
    if Block.objects.filter(blocker=challenger, blocked=challenged).exists():
        raise NotAllowed(_("You have blocked %(name)s. Unblock them first.") % {"name": name})
    _check_free([challenger.pk, challenged.pk], challenger.pk)
    if not is_online(challenged.pk):
        raise Conflict(_("%(name)s is not in the lobby right now.") % {"name": name})
    now = _now()
    try:
        with transaction.atomic():
            made = Challenge.objects.create(
                challenger=challenger,
                challenged=challenged,
                preset=preset,
                target=target,
                expires_at=now + CHALLENGE_TTL,
            )
            # Challenging is being here: keeps the challenge from expiring as "offline".
            seen_over_http(challenger)
            publish(["challenges"])
            events.challenge_changed(made.pk)
    except IntegrityError:
        raise Conflict(
            _("You have already challenged %(name)s. Wait for an answer or cancel it.")
            % {"name": name}
        ) from None
    return made


def _open_or_refuse(item: Challenge, now: datetime) -> None:
    if item.status == Challenge.Status.OPEN and item.expires_at > now:
        return
    messages: dict[str, str] = {
        Challenge.Status.ACCEPTED.value: _("That challenge was already accepted."),
        Challenge.Status.DECLINED.value: _("That challenge was already declined."),
        Challenge.Status.CANCELLED.value: _("That challenge was cancelled."),
    }
    raise Conflict(messages.get(str(item.status), _("That challenge has expired.")))


def _close(item: Challenge, status: str, reason: str = "") -> None:
    """Move an open challenge to ``status``, refusing when someone else closed it first."""
    now = _now()
    with transaction.atomic():
        changed = Challenge.objects.filter(
            pk=item.pk, status=Challenge.Status.OPEN, expires_at__gt=now
        ).update(status=status, reason=reason, answered_at=now)
        if not changed:
            item.refresh_from_db()
            _open_or_refuse(item, now)
            raise Conflict(_("That challenge has expired."))
        publish(["challenges"])
        events.challenges_closed_at(now)
    item.refresh_from_db()


def accept_challenge(item: Challenge, user: AbstractBaseUser) -> Match:
    """The challenged player accepts: the match starts, and both players are sent to it."""
    if item.challenged_id != user.pk:
        raise NotAllowed(_("Only the challenged player can accept a challenge."))
    now = _now()
    item.refresh_from_db()
    _open_or_refuse(item, now)
    if not is_online(item.challenger_id, now):
        raise Conflict(_("%(name)s has left the lobby.") % {"name": _name_of(item.challenger_id)})
    _check_free([item.challenger_id, item.challenged_id], user.pk)
    with transaction.atomic():
        won = Challenge.objects.filter(
            pk=item.pk, status=Challenge.Status.OPEN, expires_at__gt=now
        ).update(status=Challenge.Status.ACCEPTED, answered_at=now)
        if not won:
            item.refresh_from_db()
            _open_or_refuse(item, now)
            raise Conflict(_("That challenge has expired."))
        item.refresh_from_db()
        match = _start(item.challenger, item.challenged, item.preset, item.target)
        Challenge.objects.filter(pk=item.pk).update(match=match)
        _withdraw_open([item.challenger_id, item.challenged_id], now)
        publish(REGIONS)
        events.challenges_closed_at(now)
        send_to_match([item.challenger_id, item.challenged_id], match)
    item.match = match
    return match


def decline_challenge(item: Challenge, user: AbstractBaseUser, reason: str) -> None:
    if item.challenged_id != user.pk:
        raise NotAllowed(_("Only the challenged player can decline a challenge."))
    if reason not in Challenge.Reason.values:
        raise Refused(_("Choose a reason: later, different rules, or not interested."))
    _close(item, Challenge.Status.DECLINED, reason)


def cancel_challenge(item: Challenge, user: AbstractBaseUser) -> None:
    if item.challenger_id != user.pk:
        raise NotAllowed(_("Only the challenger can cancel a challenge."))
    _close(item, Challenge.Status.CANCELLED)


# --- Seeks ------------------------------------------------------------------------------------


def post_seek(user: AbstractBaseUser, preset: str, target: Any) -> Seek:
    """Offer a match to anyone in the lobby. One open seek per player."""
    target = _check_rules(preset, target)
    _check_free([user.pk], user.pk)
    try:
        with transaction.atomic():
            seek = Seek.objects.create(poster=user, preset=preset, target=target)
            seen_over_http(user)
            publish(["seeks"])
    except IntegrityError:
        raise Conflict(
            _("You already have an open seek. Cancel it to post a different one.")
        ) from None
    return seek


def accept_seek(seek: Seek, user: AbstractBaseUser) -> Match:
    """The first player to accept gets the match; everyone after is told it is gone (409)."""
    if seek.poster_id == user.pk:
        raise Refused(_("That is your own seek. Wait for someone to accept it, or cancel it."))
    if blocked_between(seek.poster_id, user.pk):
        raise NotAllowed(_("You cannot play this player."))
    seek.refresh_from_db()
    if seek.status != Seek.Status.OPEN:
        raise Conflict(_("Someone else got there first: that seek is no longer open."))
    _check_free([seek.poster_id, user.pk], user.pk)
    now = _now()
    with transaction.atomic():
        won = Seek.objects.filter(pk=seek.pk, status=Seek.Status.OPEN).update(
            status=Seek.Status.ACCEPTED, accepted_by=user
        )
        if not won:
            raise Conflict(_("Someone else got there first: that seek is no longer open."))
        seek.refresh_from_db()
        match = _start(seek.poster, user, seek.preset, seek.target)
        Seek.objects.filter(pk=seek.pk).update(match=match)
        _withdraw_open([seek.poster_id, user.pk], now)
        publish(REGIONS)
        events.challenges_closed_at(now)
        send_to_match([seek.poster_id, user.pk], match)
    seek.match = match
    return match


def cancel_seek(seek: Seek, user: AbstractBaseUser) -> None:
    if seek.poster_id != user.pk:
        raise NotAllowed(_("Only the player who posted a seek can cancel it."))
    with transaction.atomic():
        if not Seek.objects.filter(pk=seek.pk, status=Seek.Status.OPEN).update(
            status=Seek.Status.CANCELLED
        ):
            raise Conflict(_("That seek is no longer open."))
        publish(["seeks"])
    seek.refresh_from_db()


# --- Blocks -----------------------------------------------------------------------------------


def block(user: AbstractBaseUser, other: AbstractBaseUser) -> None:
    """``user`` takes no more challenges from ``other``; open ones between them are cancelled."""
    if user.pk == other.pk:
        raise Refused(_("You cannot block yourself."))
    now = _now()
    with transaction.atomic():
        Block.objects.get_or_create(blocker=user, blocked=other)
        Challenge.objects.filter(status=Challenge.Status.OPEN).filter(
            Q(challenger=user, challenged=other) | Q(challenger=other, challenged=user)
        ).update(status=Challenge.Status.CANCELLED, answered_at=now)
        publish(["players", "challenges", "seeks"])
        events.challenges_closed_at(now)


def unblock(user: AbstractBaseUser, other: AbstractBaseUser) -> None:
    with transaction.atomic():
        Block.objects.filter(blocker=user, blocked=other).delete()
        publish(["players", "seeks"])


def has_blocked(user: AbstractBaseUser, other: AbstractBaseUser) -> bool:
    return Block.objects.filter(blocker=user, blocked=other).exists()
