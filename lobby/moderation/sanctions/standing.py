"""What a player's standing sanctions mean, asked by the rest of the site: may they play
rated (``lobby.ratings.eligibility``), send quick messages (``games.live.quick_messages``, through
``hooks``), report; which notices their pages show until they acknowledge them.

Every answer is read from the database when asked, never cached: a moderator's action on one
server process holds on every other at the next request, socket frame or pairing pass.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from lobby.moderation.models import Reason, Sanction

Kind = Sanction.Kind
# What the player is told on their pages (and their event stream) until they acknowledge it.
# A closure is not: the account's pages and streams are closed.
NOTIFIED = (Kind.WARNING, Kind.MUTE, Kind.RATED_BAN, Kind.REPORT_BAN)


def standing(user_id: int, kind: str) -> Sanction | None:
    """The player's sanction of ``kind`` in force (not lifted), newest first."""
    return Sanction.objects.filter(user_id=user_id, kind=kind, lifted_at__isnull=True).first()


def rated_ban_reason(user_id: int) -> str | None:
    """Why a moderator's ban keeps this player from rated play, said to them; None when none
    stands."""
    if standing(user_id, Kind.RATED_BAN) is None:
        return None
    return _("A moderator has suspended your rated play. You may still play casual matches.")


def why_silent(user_id: int) -> str | None:
    """Why this player may not send quick messages, said to them; None when they may."""
    if standing(user_id, Kind.MUTE) is None:
        return None
    return _("A moderator has muted your quick messages.")


def may_report(user_id: int) -> bool:
    return standing(user_id, Kind.REPORT_BAN) is None


def notices_for(user_id: int) -> list[Sanction]:
    """The sanctions the player has not acknowledged yet, oldest first."""
    found = Sanction.objects.filter(
        user_id=user_id, kind__in=NOTIFIED, lifted_at__isnull=True, acknowledged_at__isnull=True
    )
    return list(found.order_by("created_at", "pk"))


def notice_text(sanction: Sanction) -> str:
    """What the player reads of a sanction, in the active language."""
    if sanction.kind == Kind.WARNING:
        topic = Reason(sanction.topic).label
        return _("A moderator has warned you about: %(topic)s. Please keep to the rules.") % {
            "topic": topic
        }
    if sanction.kind == Kind.MUTE:
        return _("A moderator has muted your quick messages.")
    if sanction.kind == Kind.RATED_BAN:
        return _("A moderator has suspended your rated play. You may still play casual matches.")
    if sanction.kind == Kind.REPORT_BAN:
        return _("A moderator has stopped you from sending reports.")
    return ""
