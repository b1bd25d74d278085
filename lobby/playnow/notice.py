"""The pool as a player playing Bea sees it, on every page of theirs (``#playnow-notice``,
in ``_base.html`` through ``{% playnow_notice %}``): still waiting, or a person found.

A lobby match that starts or ends changes what its players with a match against Bea running
are told: after the commit their region is rendered in each of the site's languages and sent
to their open pages, each of which shows the one in its own (``ginsite.pushes.page_notice``).
A subscriber of ``match_changed``: nothing of it is on the pool's own path.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import translation

from games import events
from games.models import Match, Seat
from games.move_clock import CLAIM_AFTER_SECONDS
from ginsite.pushes import page_notice
from lobby.regions import rules_label

from .offer import place_of

TEMPLATE = "lobby/playnow/notice.html"


def context(
    user: Any, *, oob: bool = False, csrf_token: str = "", said: str = ""
) -> dict[str, Any]:
    place = place_of(user)
    entry = place.entry if place is not None else None
    return {
        "place": place,
        "rules": rules_label(entry.preset, entry.target, rated=entry.rated) if entry else "",
        "claim_after": CLAIM_AFTER_SECONDS,
        "oob": oob,
        "csrf_token": csrf_token,
        "said": said,  # what became of the player's last press here
    }


def render(user: Any, *, oob: bool = False, said: str = "") -> str:
    return render_to_string(TEMPLATE, context(user, oob=oob, said=said))


def tell(user_ids: list[int]) -> None:
    """After the commit: those of these players who have a match against Bea running see
    their place in the pool as it is now, on every page of theirs."""

    def send() -> None:
        playing_bea = set(
            Seat.objects.filter(
                user_id__in=user_ids,
                kind=Seat.Kind.PLAYER,
                match__kind=Match.Kind.BEA,
                match__status=Match.Status.ACTIVE,
            ).values_list("user", flat=True)
        )
        users = get_user_model().objects.select_related("profile").filter(pk__in=playing_bea)
        for user in users:
            rendered = {}
            for code, _name in settings.LANGUAGES:
                with translation.override(code):
                    rendered[code] = render(user, oob=True)
            page_notice(user.pk, rendered)

    transaction.on_commit(send)


def on_match_changed(sender: Any, change: events.MatchChanged, **kwargs: Any) -> None:
    if change.kind == Match.Kind.LOBBY and change.reason in (events.STARTED, events.ENDED):
        tell(list(change.players))


def connect() -> None:
    events.match_changed.connect(on_match_changed, dispatch_uid="playnow.notice")
