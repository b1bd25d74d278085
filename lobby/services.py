"""The lobby's one door: presence, challenges, seeks and blocks change only through here.

Every change is made in a transaction that re-checks the row it changes (a conditional update,
so two accepts of one seek cannot both win, even on SQLite without row locks), and only after
the commit tells the ``lobby`` group which regions changed. A change that may seat players
(an accept) or hand them something to accept (a challenge, a seek) first locks those players'
rows, in one order (``games.services.lock_players``), and only then checks whether they are
free: two accepts of one player queue instead of deadlocking, and the second one is refused
(409) because the first one seated the player. The group message names regions and
nothing else; each consumer renders them for its own user. A match is only ever created through
``games.services.create_match``.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, NamedTuple

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.models import Match, Seat
from games.services import SeatSpec, create_match, lock_players, ruleset
from ginsite import limits
from ginsite.pushes import group_send_after_commit
from ginsite.refusals import Conflict, NotAllowed, Refused, TooMany
from lobby import event_feeds, presence
from lobby.models import Block, Challenge, Presence, Seek, display_name_of
from lobby.presence import PRESENCE_TTL, busy_user_ids, hidden_from, is_online, online_user_ids

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

log = logging.getLogger(__name__)

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

LOBBY_GROUP = "lobby"
REGIONS: tuple[str, ...] = ("players", "challenges", "seeks", "matches")
SWEEP_LOCK = "lobby:sweep"


def user_group(user_id: int) -> str:
    """The group of every lobby page one user has open (for redirects meant for them alone)."""
    return f"lobby-user-{user_id}"


# --- Telling the lobby ------------------------------------------------------------------------


def publish(regions: Iterable[str]) -> None:
    """After the commit, tell every lobby page which regions to re-render."""
    message = {"type": "lobby.changed", "regions": sorted(set(regions))}
    group_send_after_commit(LOBBY_GROUP, message)
    if "players" in message["regions"]:
        transaction.on_commit(presence.note_change, robust=True)


def send_to_match(user_ids: Iterable[int], match: Match) -> None:
    """After the commit, send each of these users' lobby pages to the match's table."""
    url = reverse("games:table", args=[match.public_id])
    for user_id in set(user_ids):
        group_send_after_commit(user_group(user_id), {"type": "lobby.redirect", "url": url})


# --- Presence ---------------------------------------------------------------------------------


def _now() -> datetime:
    return timezone.now()


def seen(user: AbstractBaseUser, channel_name: str) -> bool:
    """Record that a page of ``user`` is alive. True when the user has just come online."""
    now = _now()
    # The common case, the beat of a page or stream that still counts: its player was online
    # and stays so, in one statement (every open stream beats every 10 s).
    fresh = Presence.objects.filter(
        channel_name=channel_name, user_id=user.pk, last_seen__gt=now - PRESENCE_TTL
    )
    if fresh.update(last_seen=now):
        return False
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
            event_feeds.challenges_closed_at(now)
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


def _check_rules(preset: str, target: Any) -> int:
    """The target as an int, or Refused for an unknown preset or target."""
    ruleset(preset)
    try:
        number = int(target)
    except (TypeError, ValueError):
        raise Refused(_("The target must be one of 50, 100, 150 or 250.")) from None
    ruleset(preset, number)
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


def _start(
    first: AbstractBaseUser,
    second: AbstractBaseUser,
    preset: str,
    target: int,
    hints: bool = False,
) -> Match:
    """The match itself, through games' one door; ``first`` sits in seat 0."""
    try:
        return create_match(
            Match.Kind.LOBBY,
            ruleset(preset, target),
            (
                SeatSpec(Seat.Kind.PLAYER, user=first),
                SeatSpec(Seat.Kind.PLAYER, user=second),
            ),
            hints=hints,
        )
    except Refused as refused:  # a player sat down elsewhere (checked first, under lock)
        raise Conflict(refused.message) from None


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
    challenger: AbstractBaseUser,
    challenged: AbstractBaseUser,
    preset: str,
    target: Any,
    hints: bool = False,
) -> Challenge:
    """``challenger`` challenges ``challenged`` to a match of ``preset`` up to ``target``;
    ``hints``: either player may ask what Bea would do (accepting agrees to it)."""
    target = _check_rules(preset, target)
    if challenger.pk == challenged.pk:
        raise Refused(_("You cannot challenge yourself."))
    name = display_name_of(challenged)
    if Block.objects.filter(blocker=challenger, blocked=challenged).exists():
        raise NotAllowed(_("You have blocked %(name)s. Unblock them first.") % {"name": name})
    now = _now()
    try:
        with transaction.atomic():
            lock_players([challenger.pk, challenged.pk])
            _check_free([challenger.pk, challenged.pk], challenger.pk)
            # A player who blocked the challenger is, to the challenger, not in the lobby:
            # the same answer, so that it never tells a block from an absence.
            if not is_online(challenged.pk) or challenged.pk in hidden_from(challenger.pk):
                raise Conflict(_("%(name)s is not in the lobby right now.") % {"name": name})
            if Challenge.objects.filter(
                challenger=challenger, challenged=challenged, status=Challenge.Status.OPEN
            ).exists():
                raise _already_challenged(name)
            _count_challenge(challenger.pk, challenged.pk, name)
            made = Challenge.objects.create(
                challenger=challenger,
                challenged=challenged,
                preset=preset,
                target=target,
                hints=bool(hints),
                expires_at=now + CHALLENGE_TTL,
            )
            # Challenging is being here: keeps the challenge from expiring as "offline".
            seen_over_http(challenger)
            publish(["challenges"])
            event_feeds.challenge_changed(made.pk)
    except IntegrityError:  # two at once: the unique constraint let one in
        raise _already_challenged(name) from None
    return made


def _already_challenged(name: str) -> Conflict:
    return Conflict(
        _("You have already challenged %(name)s. Wait for an answer or cancel it.") % {"name": name}
    )


def _count_challenge(challenger_id: int, challenged_id: int, name: str) -> None:
    """Count a challenge against its sender's limit and its target's, in the shared cache;
    ``TooMany`` past either. A challenge and its cancellation are two events for the target,
    so without these one script could flood a player's lobby and event streams."""
    window = settings.CHALLENGE_LIMIT_WINDOW
    sent, retry = limits.hit(f"challenges-from:{challenger_id}", window)
    if sent > settings.CHALLENGE_LIMIT_PER_SENDER:
        raise TooMany(
            ngettext(
                "You have sent too many challenges. Try again in %(seconds)d second.",
                "You have sent too many challenges. Try again in %(seconds)d seconds.",
                retry,
            )
            % {"seconds": retry},
            retry,
        )
    received, retry = limits.hit(f"challenges-to:{challenged_id}", window)
    if received > settings.CHALLENGE_LIMIT_PER_TARGET:
        raise TooMany(
            ngettext(
                "%(name)s has had too many challenges just now. Try again in %(seconds)d second.",
                "%(name)s has had too many challenges just now. Try again in %(seconds)d seconds.",
                retry,
            )
            % {"name": name, "seconds": retry},
            retry,
        )


def _open_or_refuse(item: Challenge, now: datetime) -> None:
    if item.status == Challenge.Status.OPEN and item.expires_at > now:
        return
    messages: dict[str, str]
    if item.counter_to_id is not None:
        messages = {
            Challenge.Status.ACCEPTED.value: _("That proposal was already accepted."),
            Challenge.Status.DECLINED.value: _("That proposal was already declined."),
            Challenge.Status.CANCELLED.value: _("That proposal was withdrawn."),
        }
        raise Conflict(messages.get(str(item.status), _("That proposal has expired.")))
    messages = {
        Challenge.Status.ACCEPTED.value: _("That challenge was already accepted."),
        Challenge.Status.DECLINED.value: _("That challenge was already declined."),
        Challenge.Status.CANCELLED.value: _("That challenge was cancelled."),
    }
    raise Conflict(messages.get(str(item.status), _("That challenge has expired.")))


def _answer(item: Challenge, status: str, now: datetime, reason: str = "") -> None:
    """In the caller's transaction, move the open challenge to ``status``: a conditional
    update, so of two answers racing for one challenge only one wins; the other is refused
    with what became of it."""
    changed = Challenge.objects.filter(
        pk=item.pk, status=Challenge.Status.OPEN, expires_at__gt=now
    ).update(status=status, reason=reason, answered_at=now)
    if not changed:
        item.refresh_from_db()
        _open_or_refuse(item, now)
        raise Conflict(_("That challenge has expired."))


def _close(item: Challenge, status: str, reason: str = "") -> None:
    """Move an open challenge to ``status``, refusing when someone else closed it first."""
    now = _now()
    with transaction.atomic():
        _answer(item, status, now, reason)
        publish(["challenges"])
        event_feeds.challenges_closed_at(now)
    item.refresh_from_db()


def accept_challenge(item: Challenge, user: AbstractBaseUser) -> Match:
    """The challenged player accepts: the match starts, and both players are sent to it.

    A counter-proposal is accepted here too (``accept_counter``): it is a challenge back."""
    if item.challenged_id != user.pk:
        raise NotAllowed(_("Only the challenged player can accept a challenge."))
    now = _now()
    with transaction.atomic():
        lock_players([item.challenger_id, item.challenged_id])
        item.refresh_from_db()
        _open_or_refuse(item, now)
        if not is_online(item.challenger_id, now):
            raise Conflict(
                _("%(name)s has left the lobby.") % {"name": _name_of(item.challenger_id)}
            )
        _check_not_blocked(user.pk, item.challenger_id)
        _check_free([item.challenger_id, item.challenged_id], user.pk)
        _answer(item, Challenge.Status.ACCEPTED, now)
        item.refresh_from_db()
        match = _start(item.challenger, item.challenged, item.preset, item.target, item.hints)
        Challenge.objects.filter(pk=item.pk).update(match=match)
        _withdraw_open([item.challenger_id, item.challenged_id], now)
        # The new match reaches "matches" and "players" through games' announcement.
        publish(["challenges", "seeks"])
        event_feeds.challenges_closed_at(now)
        send_to_match([item.challenger_id, item.challenged_id], match)
    item.match = match
    return match


def _check_not_blocked(me_id: int, other_id: int) -> None:
    """Refuse a match between two players when either blocked the other. ``block`` cancels
    their open challenges under the same locks, so this is the rule said once more where a
    match is made, not a race it settles."""
    if other_id not in hidden_from(me_id):
        return
    name = _name_of(other_id)
    if Block.objects.filter(blocker_id=me_id, blocked_id=other_id).exists():
        raise NotAllowed(_("You have blocked %(name)s. Unblock them first.") % {"name": name})
    # Blocked by them: to this player it is as if they had left (a block shows nowhere).
    raise Conflict(_("%(name)s has left the lobby.") % {"name": name})


class Proposal(NamedTuple):
    """The rules a player declining a challenge would play instead: a preset, a target or
    both; what is None (or blank) is kept from the challenge."""

    preset: str | None = None
    target: Any = None


def decline_challenge(
    item: Challenge, user: AbstractBaseUser, reason: str, proposal: Proposal | None = None
) -> Challenge | None:
    """The challenged player says no, with a reason the challenger sees.

    With a ``proposal`` the decline carries a counter-proposal: the rules this player would
    play instead, sent back to the challenger as a challenge of its own (returned), for them
    to accept in one click."""
    if item.challenged_id != user.pk:
        raise NotAllowed(_("Only the challenged player can decline a challenge."))
    if reason not in Challenge.Reason.values:
        raise Refused(
            _("Choose a reason: later, different rules, different target, or not interested.")
        )
    if proposal is None:
        _close(item, Challenge.Status.DECLINED, reason)
        return None
    if proposal.preset in (None, "") and proposal.target in (None, ""):
        raise Refused(_("A counter-proposal needs a preset or a target."))
    target = item.target if proposal.target in (None, "") else proposal.target
    return _counter(item, user, reason, proposal.preset or item.preset, target)


def _counter(
    item: Challenge, user: AbstractBaseUser, reason: str, preset: str, target: Any
) -> Challenge:
    if reason not in (Challenge.Reason.RULES, Challenge.Reason.TARGET):
        raise Refused(_("A counter-proposal goes with “different rules” or “different target”."))
    target = _check_rules(preset, target)
    if preset == item.preset and target == item.target:
        raise Refused(_("Propose other rules than the challenge's: another preset or target."))
    # The reason says what the proposal changes, whichever of the two the decline named.
    reason = Challenge.Reason.RULES if preset != item.preset else Challenge.Reason.TARGET
    challenger = item.challenger
    name = display_name_of(challenger)
    now = _now()
    try:
        with transaction.atomic():
            # As for a new challenge: both players first, then whether they may play.
            lock_players([item.challenger_id, item.challenged_id])
            item.refresh_from_db()
            _open_or_refuse(item, now)
            if not is_online(challenger.pk, now):
                raise Conflict(_("%(name)s has left the lobby.") % {"name": name})
            _check_not_blocked(user.pk, challenger.pk)
            _check_free([item.challenger_id, item.challenged_id], user.pk)
            _answer(item, Challenge.Status.DECLINED, now, reason)
            made = Challenge.objects.create(
                challenger_id=user.pk,
                challenged_id=challenger.pk,
                preset=preset,
                target=target,
                hints=item.hints,
                expires_at=now + CHALLENGE_TTL,
                counter_to=item,
            )
            # Proposing is being here: keeps the proposal from expiring as "offline".
            seen_over_http(user)
            publish(["challenges"])
            event_feeds.challenges_closed_at(now)
            event_feeds.challenge_changed(made.pk)
    except IntegrityError:  # this player has an open challenge to the challenger already
        raise _already_challenged(name) from None
    item.refresh_from_db()
    return made


def accept_counter(item: Challenge, user: AbstractBaseUser) -> Match:
    """The challenger of ``item`` takes the counter-proposal it was declined with: the match
    starts at once with the proposed rules, through the one accept of challenges (expiry,
    a single acceptance, presence, blocks and busy players all checked there)."""
    if item.challenger_id != user.pk:
        raise NotAllowed(_("Only the challenger can accept a counter-proposal."))
    proposal = Challenge.objects.filter(counter_to=item).first()
    if proposal is None:
        raise Refused(_("That challenge was not declined with a counter-proposal."))
    return accept_challenge(proposal, user)


def cancel_challenge(item: Challenge, user: AbstractBaseUser) -> None:
    if item.challenger_id != user.pk:
        raise NotAllowed(_("Only the challenger can cancel a challenge."))
    _close(item, Challenge.Status.CANCELLED)


# --- Seeks ------------------------------------------------------------------------------------


def post_seek(user: AbstractBaseUser, preset: str, target: Any) -> Seek:
    """Offer a match to anyone in the lobby. One open seek per player."""
    target = _check_rules(preset, target)
    try:
        with transaction.atomic():
            lock_players([user.pk])
            _check_free([user.pk], user.pk)
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
    if Block.objects.filter(blocker=user, blocked_id=seek.poster_id).exists():
        raise NotAllowed(
            _("You have blocked %(name)s. Unblock them first.") % {"name": _name_of(seek.poster_id)}
        )
    if seek.poster_id in hidden_from(user.pk):
        # The poster blocked this player, who does not see the seek: as if it were gone.
        raise Conflict(_("Someone else got there first: that seek is no longer open."))
    now = _now()
    with transaction.atomic():
        lock_players([seek.poster_id, user.pk])
        seek.refresh_from_db()
        if seek.status != Seek.Status.OPEN:
            raise Conflict(_("Someone else got there first: that seek is no longer open."))
        _check_free([seek.poster_id, user.pk], user.pk)
        won = Seek.objects.filter(pk=seek.pk, status=Seek.Status.OPEN).update(
            status=Seek.Status.ACCEPTED, accepted_by=user
        )
        if not won:
            raise Conflict(_("Someone else got there first: that seek is no longer open."))
        seek.refresh_from_db()
        match = _start(seek.poster, user, seek.preset, seek.target)
        Seek.objects.filter(pk=seek.pk).update(match=match)
        _withdraw_open([seek.poster_id, user.pk], now)
        # The new match reaches "matches" and "players" through games' announcement.
        publish(["challenges", "seeks"])
        event_feeds.challenges_closed_at(now)
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
        # The two players first, as every change of their challenges takes them (see above).
        lock_players([user.pk, other.pk])
        Block.objects.get_or_create(blocker=user, blocked=other)
        Challenge.objects.filter(status=Challenge.Status.OPEN).filter(
            Q(challenger=user, challenged=other) | Q(challenger=other, challenged=user)
        ).update(status=Challenge.Status.CANCELLED, answered_at=now)
        publish(["players", "challenges", "seeks"])
        event_feeds.challenges_closed_at(now)


def unblock(user: AbstractBaseUser, other: AbstractBaseUser) -> None:
    with transaction.atomic():
        Block.objects.filter(blocker=user, blocked=other).delete()
        publish(["players", "seeks"])


def has_blocked(user: AbstractBaseUser, other: AbstractBaseUser) -> bool:
    return Block.objects.filter(blocker=user, blocked=other).exists()
