"""What moderators do to a player, one function per door the moderators' page and its tests
use: ``act`` (warn, mute quick messages, ban from rated play or from reporting, close the
account), ``lift`` (undo any of them) and ``dismiss`` (close the reports, no sanction).

Each takes the reason the moderator typed and is logged (``LogEntry``: who, what, to whom,
why, when) in the transaction that makes it; each closes the player's open reports; and each
takes effect at once everywhere, since every check reads the database (``sanctions``) and
every push crosses server processes through the channel layer: the player's notice on their
open pages and their event stream (``notices``), the lobby's lists where offers were
withdrawn (``withdraw``), and a closed account's sockets and streams, which
``lobby.subscribers`` closes on every process when ``is_active`` turns false.
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ginsite.lib.refusals import Conflict, NotAllowed, NotFound, Refused
from lobby.broadcast import publish
from lobby.moderation.access import is_moderator
from lobby.moderation.models import REASON_MAX, LogEntry, Reason, Report, Sanction
from lobby.moderation.sanctions import notices, refunds, withdraw

Kind = Sanction.Kind
ACTION_OF = {
    Kind.WARNING: LogEntry.Action.WARN,
    Kind.MUTE: LogEntry.Action.MUTE,
    Kind.RATED_BAN: LogEntry.Action.RATED_BAN,
    Kind.REPORT_BAN: LogEntry.Action.REPORT_BAN,
    Kind.CLOSURE: LogEntry.Action.CLOSE,
}


class AlreadySanctioned(Conflict, code="already_sanctioned"):
    """A sanction of that kind stands already (lift it first)."""


def _checked_reason(moderator: Any, player: Any, reason: str) -> str:
    if not is_moderator(moderator):
        raise NotAllowed(_("Only moderators may do that."))
    if moderator.pk == player.pk:
        raise NotAllowed(_("Moderators do not act on their own account."))
    reason = " ".join((reason or "").split())
    if not reason:
        raise Refused(_("Say why: the reason goes into the log."))
    if len(reason) > REASON_MAX:
        raise Refused(_("Keep the reason to %(n)s characters.") % {"n": REASON_MAX})
    return reason


def act(
    moderator: Any, player: Any, kind: str, topic: str, reason: str, *, refund: bool = False
) -> Sanction:
    """Give ``player`` a sanction of ``kind`` about ``topic`` (a report reason); ``refund``,
    for a closure: void its rated results and refund its victims (``refunds``)."""
    reason = _checked_reason(moderator, player, reason)
    if kind not in ACTION_OF:
        raise Refused(_("Choose an action."))
    if topic not in Reason.values:
        raise Refused(_("Choose what it is about."))
    with transaction.atomic():
        try:
            with transaction.atomic():
                sanction = Sanction.objects.create(
                    user=player, kind=kind, topic=topic, reason=reason, created_by=moderator
                )
        except IntegrityError:
            raise AlreadySanctioned(
                _("That stands already: lift it first to give it again.")
            ) from None
        details = _take_effect(sanction, player, refund=refund)
        if details:
            sanction.details = details
            sanction.save(update_fields=["details"])
        _log(moderator, player, ACTION_OF[Kind(kind)], reason, sanction, details)
        _close_reports(moderator, player)
        notices.record(sanction)
        notices.changed(player)
    return sanction


def _take_effect(sanction: Sanction, player: Any, *, refund: bool) -> dict[str, Any]:
    """What the sanction changes besides itself, at once: what it did, for the log."""
    if sanction.kind == Kind.RATED_BAN:
        return {"withdrawn": withdraw.offers(player.pk, rated_only=True)}
    if sanction.kind == Kind.REPORT_BAN:
        # Their pending reports were the reason, most likely: none waits for a moderator now.
        pending = Report.objects.filter(reporter=player, status=Report.Status.OPEN)
        closed = pending.update(status=Report.Status.CLOSED, closed_at=timezone.now())
        return {"reports_closed": closed}
    if sanction.kind == Kind.CLOSURE:
        details = {"withdrawn": withdraw.offers(player.pk, rated_only=False)}
        if refund:
            details.update(refunds.refund(sanction))
        player.is_active = False
        # lobby.subscribers: every socket and stream of the account closes, on every process.
        player.save(update_fields=["is_active"])
        publish(["players"])
        return details
    return {}


def lift(moderator: Any, sanction_id: int, reason: str) -> Sanction:
    """Lift a standing sanction: a closed account opens again (its ratings as they were
    before a closure for rating abuse; the refunds it gave stay)."""
    with transaction.atomic():
        sanction = (
            Sanction.objects.select_for_update()
            .select_related("user")
            .filter(pk=sanction_id)
            .first()
        )
        if sanction is None:
            raise NotFound(_("There is no such sanction."))
        player = sanction.user
        reason = _checked_reason(moderator, player, reason)
        if sanction.lifted_at is not None:
            raise Conflict(_("That was lifted already."))
        sanction.lifted_at, sanction.lifted_by = timezone.now(), moderator
        sanction.save(update_fields=["lifted_at", "lifted_by"])
        if sanction.kind == Kind.CLOSURE:
            player.is_active = True
            player.save(update_fields=["is_active"])
            refunds.restore(sanction)
        _log(moderator, player, LogEntry.Action.LIFT, reason, sanction, {"kind": sanction.kind})
        notices.record(sanction, lifted=True)
        notices.changed(player)
    return sanction


def dismiss(moderator: Any, player: Any, reason: str) -> int:
    """Close the player's open reports without a sanction: how many."""
    reason = _checked_reason(moderator, player, reason)
    with transaction.atomic():
        closed = _close_reports(moderator, player)
        if not closed:
            raise Conflict(_("No report of this player is open."))
        _log(moderator, player, LogEntry.Action.DISMISS, reason, None, {"reports": closed})
    return closed


def acknowledge(user: Any, sanction_id: int) -> None:
    """The player has read a notice of theirs: it goes from their pages (all of them)."""
    with transaction.atomic():
        done = Sanction.objects.filter(
            pk=sanction_id, user_id=user.pk, acknowledged_at__isnull=True
        ).update(acknowledged_at=timezone.now())
        if not done:
            raise NotFound(_("There is no such notice."))
        notices.changed(user)


def _close_reports(moderator: Any, player: Any) -> int:
    return Report.objects.filter(reported=player, status=Report.Status.OPEN).update(
        status=Report.Status.CLOSED, closed_at=timezone.now(), closed_by=moderator
    )


def _log(
    moderator: Any,
    player: Any,
    action: str,
    reason: str,
    sanction: Sanction | None,
    details: dict[str, Any],
) -> None:
    LogEntry.objects.create(
        moderator=moderator,
        player=player,
        action=action,
        reason=reason,
        sanction=sanction,
        details=details,
    )
