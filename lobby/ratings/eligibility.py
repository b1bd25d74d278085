"""Who may play for rating now: the one place that says, for challenges, seeks and quick
pairing alike (docs/moderation.md, "Rules of rated play").

Rated play needs a verified e-mail address (``lobby.accounts.emails``): one address per
account, so a farm of throw-away accounts costs an address each. A moderator may ban a player
from rated play (``lobby.moderation``) until the ban is lifted.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _

from ginsite.refusals import NotAllowed
from lobby.accounts.emails import has_verified_email
from lobby.models import display_name_of
from lobby.moderation.sanctions import rated_ban_reason


def why_not_rated(user_id: int) -> str | None:
    """Why this player may not play for rating now, said to them; None when they may."""
    if not has_verified_email(user_id):
        return _("Rated play needs a verified e-mail address: add one in Settings.")
    # A moderator's ban from rated play (lobby.moderation), until it is lifted.
    banned = rated_ban_reason(user_id)
    if banned is not None:
        return banned
    return None


def check(asker_id: int, others: Iterable[int] = ()) -> None:
    """``NotAllowed`` unless the asking player and the ``others`` they would play may all play
    for rating. The asker hears their own reason; of another player only that they cannot,
    never why (a reason may be a moderator's sanction, which is theirs to know)."""
    reason = why_not_rated(asker_id)
    if reason is not None:
        raise NotAllowed(reason)
    for other in others:
        if other != asker_id and why_not_rated(other) is not None:
            user = get_user_model().objects.select_related("profile").get(pk=other)
            raise NotAllowed(
                _("%(name)s cannot play rated matches right now. Offer a casual one instead.")
                % {"name": display_name_of(user)}
            )
