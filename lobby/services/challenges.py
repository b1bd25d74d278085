"""Challenges: send one, accept it, decline it (perhaps with a counter-proposal), take the
counter-proposal, cancel it.

Every change is made in a transaction that re-checks the row it changes (a conditional update,
so two answers to one challenge cannot both win, even on SQLite without row locks), and only
after the commit tells the lobby's pages (``lobby.broadcast``) and both players' event logs
(``lobby.events.feeds``). Each action is the acting player being in the lobby, as opening its
page is (``presence.seen_over_http``), whether or not it goes through.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, NamedTuple

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.live.correspondence import check_days
from games.models import Match
from games.services import lock_players
from ginsite.lib import limits
from ginsite.lib.refusals import Conflict, NotAllowed, NotFound, Refused, TooMany
from lobby.broadcast import publish
from lobby.events import feeds as event_feeds
from lobby.models import Block, Challenge, display_name_of
from lobby.presence import hidden_from, is_online, seen_over_http
from lobby.ratings import aborts, eligibility

from .pairing import check_free, check_not_blocked, check_rules, name_of, start_match

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

CHALLENGE_TTL = timedelta(minutes=2)
# A correspondence challenge waits for its player to come by, online or not: days, not minutes.
CORRESPONDENCE_CHALLENGE_TTL = timedelta(days=3)
# How long a challenger keeps seeing that their challenge was declined or expired.
ANSWER_SHOWN = timedelta(minutes=10)


def challenge_for(user: AbstractBaseUser, pk: int) -> Challenge:
    """A challenge ``user`` sent or received (with what its answers show); anyone else's is
    ``NotFound``, as if it did not exist."""
    found = (
        Challenge.objects.select_related(*event_feeds.CHALLENGE_RELATED)
        .filter(Q(challenger=user) | Q(challenged=user), pk=pk)
        .first()
    )
    if found is None:
        raise NotFound(_("There is no such challenge."))
    return found


def challenge(
    challenger: AbstractBaseUser,
    challenged: AbstractBaseUser,
    preset: str,
    target: Any,
    hints: bool = False,
    rated: bool = False,
    days_per_move: Any = None,
) -> Challenge:
    """``challenger`` challenges ``challenged`` to a match of ``preset`` up to ``target``;
    ``hints``: either player may ask what Bea would do (accepting agrees to it); ``rated``:
    played for rating (``lobby.ratings``), else casual; ``days_per_move``: a correspondence
    match (1, 3 or 7), which needs neither player online nor free of a live match, and
    waits days for an answer."""
    # Challenging is being here: it also keeps the challenge from expiring as "offline".
    seen_over_http(challenger)
    target = check_rules(preset, target)
    days = check_days(days_per_move)
    if challenger.pk == challenged.pk:
        raise Refused(_("You cannot challenge yourself."))
    name = display_name_of(challenged)
    if Block.objects.filter(blocker=challenger, blocked=challenged).exists():
        raise NotAllowed(_("You have blocked %(name)s. Unblock them first.") % {"name": name})
    aborts.check(challenger.pk)
    if rated:
        eligibility.check(challenger.pk, [challenged.pk])
    now = timezone.now()
    try:
        with transaction.atomic():
            lock_players([challenger.pk, challenged.pk])
            check_free([challenger.pk, challenged.pk], challenger.pk, days)
            # A player who blocked the challenger is, to the challenger, not in the lobby:
            # the same answer, so that it never tells a block from an absence.
            if challenged.pk in hidden_from(challenger.pk) or (
                days is None and not is_online(challenged.pk)
            ):
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
                rated=bool(rated),
                days_per_move=days,
                expires_at=now + ttl(days),
            )
            publish(["challenges"])
            event_feeds.challenge_changed(made.pk)
    except IntegrityError:  # two at once: the unique constraint let one in
        raise _already_challenged(name) from None
    return made


def ttl(days_per_move: int | None) -> timedelta:
    """How long a challenge waits for its answer."""
    return CHALLENGE_TTL if days_per_move is None else CORRESPONDENCE_CHALLENGE_TTL


def _already_challenged(name: str) -> Conflict:
    return Conflict(
        _("You have already challenged %(name)s. Wait for an answer or cancel it.") % {"name": name}
    )


def _count_challenge(challenger_id: int, challenged_id: int, name: str) -> None:
    """Count a challenge against its sender's limit and its target's, in the shared cache;
    ``TooMany`` past either. A challenge and its cancellation are two events for the target,
    so without these one script could flood a player's lobby and event streams."""
    _count(
        f"challenges-from:{challenger_id}",
        settings.CHALLENGE_LIMIT_PER_SENDER,
        lambda retry: (
            ngettext(
                "You have sent too many challenges. Try again in %(seconds)d second.",
                "You have sent too many challenges. Try again in %(seconds)d seconds.",
                retry,
            )
            % {"seconds": retry}
        ),
    )
    _count(
        f"challenges-to:{challenged_id}",
        settings.CHALLENGE_LIMIT_PER_TARGET,
        lambda retry: (
            ngettext(
                "%(name)s has had too many challenges just now. Try again in %(seconds)d second.",
                "%(name)s has had too many challenges just now. Try again in %(seconds)d seconds.",
                retry,
            )
            % {"name": name, "seconds": retry}
        ),
    )


def _count(key: str, limit: int, too_many: Callable[[int], str]) -> None:
    """One more under ``key`` in the current window; past ``limit``, ``TooMany`` saying
    ``too_many(seconds to wait)``."""
    count, retry = limits.hit(key, settings.CHALLENGE_LIMIT_WINDOW)
    if count > limit:
        raise TooMany(too_many(retry), retry)


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


def _lock_open(item: Challenge, user: AbstractBaseUser, now: datetime) -> None:
    """In the caller's transaction, before ``user`` answers ``item`` with a match or a match
    proposed: both players locked (see ``pairing``), the challenge still open, its challenger
    still in the lobby, and neither blocked by the other nor busy in a match."""
    lock_players([item.challenger_id, item.challenged_id])
    item.refresh_from_db()
    _open_or_refuse(item, now)
    # A correspondence challenge is answered whenever its player comes by.
    if item.days_per_move is None and not is_online(item.challenger_id, now):
        raise Conflict(_("%(name)s has left the lobby.") % {"name": name_of(item.challenger_id)})
    check_not_blocked(user.pk, item.challenger_id)
    check_free([item.challenger_id, item.challenged_id], user.pk, item.days_per_move)
    aborts.check(user.pk, [item.challenger_id])
    if item.rated:
        eligibility.check(user.pk, [item.challenger_id, item.challenged_id])


def accept_challenge(item: Challenge, user: AbstractBaseUser) -> Match:
    """The challenged player accepts: the match starts, and both players are sent to it.

    A counter-proposal is accepted here too (``accept_counter``): it is a challenge back."""
    seen_over_http(user)
    if item.challenged_id != user.pk:
        raise NotAllowed(_("Only the challenged player can accept a challenge."))
    now = timezone.now()
    with transaction.atomic():
        _lock_open(item, user, now)
        _answer(item, Challenge.Status.ACCEPTED, now)
        item.refresh_from_db()
        match = start_match(
            item.challenger,
            item.challenged,
            item.preset,
            item.target,
            now,
            item.hints,
            rated=item.rated,
            days_per_move=item.days_per_move,
        )
        Challenge.objects.filter(pk=item.pk).update(match=match)
    item.match = match
    return match


def accept_counter(item: Challenge, user: AbstractBaseUser) -> Match:
    """The challenger of ``item`` takes the counter-proposal it was declined with: the match
    starts at once with the proposed rules, through the one accept of challenges (expiry,
    a single acceptance, presence, blocks and busy players all checked there)."""
    seen_over_http(user)
    if item.challenger_id != user.pk:
        raise NotAllowed(_("Only the challenger can accept a counter-proposal."))
    proposal = Challenge.objects.filter(counter_to=item).first()
    if proposal is None:
        raise Refused(_("That challenge was not declined with a counter-proposal."))
    return accept_challenge(proposal, user)


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
    seen_over_http(user)
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
    target = check_rules(preset, target)
    if preset == item.preset and target == item.target:
        raise Refused(_("Propose other rules than the challenge's: another preset or target."))
    # The reason says what the proposal changes, whichever of the two the decline named.
    reason = Challenge.Reason.RULES if preset != item.preset else Challenge.Reason.TARGET
    now = timezone.now()
    try:
        with transaction.atomic():
            # As for a new challenge: both players first, then whether they may play.
            _lock_open(item, user, now)
            _answer(item, Challenge.Status.DECLINED, now, reason)
            made = Challenge.objects.create(
                challenger_id=user.pk,
                challenged_id=item.challenger_id,
                preset=preset,
                target=target,
                hints=item.hints,
                rated=item.rated,
                days_per_move=item.days_per_move,
                expires_at=now + ttl(item.days_per_move),
                counter_to=item,
            )
            publish(["challenges"])
            event_feeds.challenges_closed_at(now)
            event_feeds.challenge_changed(made.pk)
    except IntegrityError:  # this player has an open challenge to the challenger already
        raise _already_challenged(display_name_of(item.challenger)) from None
    item.refresh_from_db()
    return made


def cancel_challenge(item: Challenge, user: AbstractBaseUser) -> None:
    seen_over_http(user)
    if item.challenger_id != user.pk:
        raise NotAllowed(_("Only the challenger can cancel a challenge."))
    _close(item, Challenge.Status.CANCELLED)


def _close(item: Challenge, status: str, reason: str = "") -> None:
    """Move an open challenge to ``status``, refusing when someone else closed it first."""
    now = timezone.now()
    with transaction.atomic():
        _answer(item, status, now, reason)
        publish(["challenges"])
        event_feeds.challenges_closed_at(now)
    item.refresh_from_db()
