"""What a player hears of on their devices when no page of theirs is open (Web Push).

Two subscribers, connected in ``lobby.subscribers.connect``: a challenge sent to a player (said
so when it comes from a player they follow), and
a rematch offered to them at the end of a match (``games.events.OFFERED``). Each notice is
written in the recipient's language (their profile's, else the site's) and sent after the
commit by ``lobby.push_delivery``, which also skips a player who has a page or stream open.
A notice names players and rules, never a card.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from games import events
from games.events import MatchChanged
from games.labels import PRESET_NAMES
from games.models import Match, Offer, Seat
from lobby.models import Challenge, Follow, display_name_of, ensure_profile
from lobby.push_delivery import Notice, send

# How long a push service keeps a rematch offer for a device that is offline.
REMATCH_TTL_SECONDS = 10 * 60


def _language(user: Any) -> str:
    return ensure_profile(user).language or settings.LANGUAGE_CODE


def on_challenge_saved(sender: Any, instance: Challenge, created: bool, **kwargs: Any) -> None:
    if not created or kwargs.get("raw") or instance.status != Challenge.Status.OPEN:
        return
    challenged = instance.challenged
    seconds = int((instance.expires_at - timezone.now()).total_seconds())
    followed = Follow.objects.filter(follower=challenged, followed=instance.challenger_id).exists()
    with translation.override(_language(challenged)):
        preset = PRESET_NAMES.get(instance.preset, instance.preset)
        rules = {"rules": preset, "target": instance.target}
        name = {"name": display_name_of(instance.challenger)}
        notice = Notice(
            title=(
                _("%(name)s, whom you follow, challenges you") % name
                if followed
                else _("%(name)s challenges you") % name
            ),
            body=_("%(rules)s to %(target)s points: accept or decline it in the lobby.") % rules,
            url=reverse("lobby:lobby"),
            tag=f"challenge-{instance.pk}",
            ttl=max(seconds, 0),
        )
    send(challenged.pk, notice)


def on_match_changed(
    sender: Any, change: MatchChanged, match: Match | None = None, **kwargs: Any
) -> None:
    if change.reason != events.OFFERED:
        return
    offer = Offer.objects.filter(
        match_id=change.match_id, kind=Offer.Kind.REMATCH, status=Offer.Status.PENDING
    ).first()
    if offer is None:
        return
    seats = {
        s.number: s.user
        for s in Seat.objects.filter(match_id=change.match_id).select_related("user")
    }
    offerer, offered = seats.get(offer.from_seat), seats.get(1 - offer.from_seat)
    if offerer is None or offered is None:
        return  # a guest or Bea: nobody to notify, or no name to give
    with translation.override(_language(offered)):
        notice = Notice(
            title=_("%(name)s offers a rematch") % {"name": display_name_of(offerer)},
            body=_("Accept or decline it at the table."),
            url=reverse("games:table", args=[change.public_id]),
            tag=f"rematch-{offer.pk}",
            ttl=REMATCH_TTL_SECONDS,
        )
    send(offered.pk, notice)
