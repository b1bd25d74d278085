"""Who may play for rating now: the one place that says, for challenges, seeks and quick
pairing alike (docs/moderation.md, "Rules of rated play").

Rated play needs a verified e-mail address (``lobby.accounts.emails``): one address per
account, so a farm of throw-away accounts costs an address each. And it needs an account that
has been around: at least ACCOUNT_AGE old, or with FINISHED_MATCHES finished matches (against
people or Bea; lessons and matches ended before their first hand was over do not count), so
that an account made for one rated match costs a day or a few real matches first. A moderator
may ban a player from rated play (``lobby.moderation``) until the ban is lifted.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.models import HandRecord, Match, Seat
from ginsite.lib.refusals import NotAllowed
from lobby.accounts.emails import has_verified_email
from lobby.models import display_name_of
from lobby.moderation.sanctions.standing import rated_ban_reason

from .words import wait_words

ACCOUNT_AGE = timedelta(days=1)
FINISHED_MATCHES = 3
# Matches against a person or Bea; a lesson is a guest's, pass and play is a player's own.
_COUNTED_KINDS = (Match.Kind.LOBBY, Match.Kind.PRIVATE, Match.Kind.BEA)
_ENDED = (
    Match.Status.FINISHED,
    Match.Status.RESIGNED,
    Match.Status.ABANDONED,
    Match.Status.TIMED_OUT,
)


class NotRated(NotAllowed, code="rated_not_allowed"):
    """A rated challenge, accept, seek or pool join by (or with) a player who may not play
    for rating now (403)."""


def why_not_rated(user_id: int) -> str | None:
    """Why this player may not play for rating now, said to them; None when they may."""
    if not has_verified_email(user_id):
        return _("Rated play needs a verified e-mail address: add one in Settings.")
    # A moderator's ban from rated play (lobby.moderation), until it is lifted.
    banned = rated_ban_reason(user_id)
    if banned is not None:
        return banned
    return _too_new(user_id, timezone.now())


def _too_new(user_id: int, now: datetime) -> str | None:
    """Why the account is too new for rated play (when it may, and after how many more
    finished matches), or None."""
    found = get_user_model().objects.filter(pk=user_id).values_list("date_joined", flat=True)
    joined = found.first()
    if joined is None or joined <= now - ACCOUNT_AGE:
        return None
    missing = FINISHED_MATCHES - finished_matches(user_id, FINISHED_MATCHES)
    if missing <= 0:
        return None
    return ngettext(
        "You can play rated in %(time)s, or after %(n)s more finished match.",
        "You can play rated in %(time)s, or after %(n)s more finished matches.",
        missing,
    ) % {"time": wait_words((joined + ACCOUNT_AGE - now).total_seconds()), "n": missing}


def finished_matches(user_id: int, enough: int) -> int:
    """The player's finished matches against people or Bea, up to ``enough``: ended, and not
    before their first hand was over (an abort, rated or casual, is not a match played)."""
    seats = Seat.objects.filter(
        user_id=user_id,
        kind=Seat.Kind.PLAYER,
        match__kind__in=_COUNTED_KINDS,
        match__status__in=_ENDED,
    ).filter(Exists(HandRecord.objects.filter(match_id=OuterRef("match_id"))))
    return len(seats.values_list("match_id", flat=True)[:enough])


def check(asker_id: int, others: Iterable[int] = ()) -> None:
    """``NotRated`` unless the asking player and the ``others`` they would play may all play
    for rating. The asker hears their own reason; of another player only that they cannot,
    never why (a reason may be a moderator's sanction, which is theirs to know)."""
    reason = why_not_rated(asker_id)
    if reason is not None:
        raise NotRated(reason)
    for other in others:
        if other != asker_id and why_not_rated(other) is not None:
            user = get_user_model().objects.select_related("profile").get(pk=other)
            raise NotRated(
                _("%(name)s cannot play rated matches right now. Offer a casual one instead.")
                % {"name": display_name_of(user)}
            )
