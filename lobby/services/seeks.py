"""Seeks: a match offered to anyone in the lobby; the first to accept it plays its poster.

As for challenges, each change re-checks its row in its transaction (so two accepts of one seek
cannot both win), tells the lobby's pages after the commit, and is its player being in the
lobby (``presence.seen_over_http``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.live.correspondence import check_days
from games.models import Match
from games.services import lock_players
from ginsite.lib.refusals import Conflict, NotAllowed, NotFound, Refused
from lobby.broadcast import publish
from lobby.models import Block, Seek
from lobby.presence import hidden_from, seen_over_http
from lobby.ratings import aborts, eligibility

from .pairing import check_free, check_rules, name_of, start_match

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser


def seek_for(pk: int, viewer: AbstractBaseUser | None = None) -> Seek:
    """A seek (they are public: anyone in the lobby may see and accept one), or ``NotFound``;
    also for a ``viewer`` kept apart from its poster by a block, as in the lobby's list."""
    found = Seek.objects.select_related("poster__profile", "match").filter(pk=pk).first()
    if found is None or (viewer is not None and found.poster_id in hidden_from(viewer.pk)):
        raise NotFound(_("There is no such seek."))
    return found


def post_seek(
    user: AbstractBaseUser, preset: str, target: Any, rated: bool = False, days_per_move: Any = None
) -> Seek:
    """Offer a match to anyone in the lobby, rated or casual, live or by correspondence
    (``days_per_move``: stays open while its poster is away, for
    ``presence.CORRESPONDENCE_SEEK_TTL``). One open seek
    per player."""
    seen_over_http(user)
    target = check_rules(preset, target)
    days = check_days(days_per_move)
    aborts.check(user.pk)
    if rated:
        eligibility.check(user.pk)
    try:
        with transaction.atomic():
            lock_players([user.pk])
            check_free([user.pk], user.pk, days)
            seek = Seek.objects.create(
                poster=user, preset=preset, target=target, rated=bool(rated), days_per_move=days
            )
            publish(["seeks"])
    except IntegrityError:
        raise Conflict(
            _("You already have an open seek. Cancel it to post a different one.")
        ) from None
    return seek


def accept_seek(seek: Seek, user: AbstractBaseUser) -> Match:
    """The first player to accept gets the match; everyone after is told it is gone (409)."""
    seen_over_http(user)
    if seek.poster_id == user.pk:
        raise Refused(_("That is your own seek. Wait for someone to accept it, or cancel it."))
    if Block.objects.filter(blocker=user, blocked_id=seek.poster_id).exists():
        raise NotAllowed(
            _("You have blocked %(name)s. Unblock them first.") % {"name": name_of(seek.poster_id)}
        )
    if seek.poster_id in hidden_from(user.pk):
        # The poster blocked this player, who does not see the seek: as if it were gone.
        raise _gone()
    aborts.check(user.pk, [seek.poster_id])
    now = timezone.now()
    with transaction.atomic():
        lock_players([seek.poster_id, user.pk])
        seek.refresh_from_db()
        if seek.status != Seek.Status.OPEN:
            raise _gone()
        check_free([seek.poster_id, user.pk], user.pk, seek.days_per_move)
        if seek.rated:
            eligibility.check(user.pk, [seek.poster_id])
        won = Seek.objects.filter(pk=seek.pk, status=Seek.Status.OPEN).update(
            status=Seek.Status.ACCEPTED, accepted_by=user
        )
        if not won:
            raise _gone()
        seek.refresh_from_db()
        match = start_match(
            seek.poster,
            user,
            seek.preset,
            seek.target,
            now,
            rated=seek.rated,
            days_per_move=seek.days_per_move,
        )
        Seek.objects.filter(pk=seek.pk).update(match=match)
    seek.match = match
    return match


def _gone() -> Conflict:
    return Conflict(_("Someone else got there first: that seek is no longer open."))


def cancel_seek(seek: Seek, user: AbstractBaseUser) -> None:
    seen_over_http(user)
    if seek.poster_id != user.pk:
        raise NotAllowed(_("Only the player who posted a seek can cancel it."))
    with transaction.atomic():
        if not Seek.objects.filter(pk=seek.pk, status=Seek.Status.OPEN).update(
            status=Seek.Status.CANCELLED
        ):
            raise Conflict(_("That seek is no longer open."))
        publish(["seeks"])
    seek.refresh_from_db()
