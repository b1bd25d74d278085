"""The pool as a player playing Bea sees it, on every page of theirs (``#playnow-notice``,
in ``_base.html`` through ``{% playnow_notice %}``): still waiting, or a person found.

A lobby match that starts or ends changes what its players with a match against Bea running
are told: after the commit their region is rendered in each of the site's languages and sent
to their open pages, each of which shows the one in its own
(``ginsite.lib.after_commit.page_notice``). A subscriber of ``match_changed``: nothing of it is on
the pool's own path.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import translation

from games import events
from games.live.connection import CLAIM_AFTER_SECONDS
from games.models import Match, Seat
from ginsite.lib.after_commit import page_notice
from lobby.regions import rules_label

from .offer import opponent_of, place_of

TEMPLATE = "lobby/playnow/notice.html"


def context(
    user: Any,
    *,
    table: Match | None = None,
    oob: bool = False,
    csrf_token: str = "",
    said: str = "",
) -> dict[str, Any]:
    """The region for ``user`` at a table against Bea, or at the lobby match ``table``."""
    place = place_of(user, table)
    entry = place.entry if place is not None else None
    return {
        "place": place,
        "rules": rules_label(entry.preset, entry.target, rated=entry.rated) if entry else "",
        "claim_after": CLAIM_AFTER_SECONDS,
        "oob": oob,
        "csrf_token": csrf_token,
        "said": said,  # what became of the player's last press here
    }


def render(user: Any, *, table: Match | None = None, oob: bool = False, said: str = "") -> str:
    return render_to_string(TEMPLATE, context(user, table=table, oob=oob, said=said))


def _send(user: Any, table: Match | None = None) -> None:
    rendered = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            rendered[code] = render(user, table=table, oob=True)
    page_notice(user.pk, rendered)


def tell_opponent(user: Any, match: Match) -> None:
    """After the commit: the person waiting at ``match`` for ``user``, who has just left Bea's
    table, no longer reads that they are at it."""
    other = opponent_of(user, match)
    if other is not None:
        transaction.on_commit(lambda: _send(other, match))


def tell(user_ids: list[int], match_id: int | None = None) -> None:
    """After the commit: those of these players who have a match against Bea running see
    their place in the pool as it is now, on every page of theirs; and, once the lobby match
    ``match_id`` has ended, the others who read that their opponent was at Bea's table no
    longer do."""

    def send() -> None:
        playing_bea = set(
            Seat.objects.filter(
                user_id__in=user_ids,
                kind=Seat.Kind.PLAYER,
                match__kind=Match.Kind.BEA,
                match__status=Match.Status.ACTIVE,
            ).values_list("user", flat=True)
        )
        if not playing_bea:
            return  # the rule: nothing more for a lobby match that has nobody at Bea's table
        users = get_user_model().objects.select_related("profile").filter(pk__in=user_ids)
        ended = Match.objects.filter(pk=match_id).first() if match_id is not None else None
        for user in users:
            if user.pk in playing_bea:
                _send(user)
            elif ended is not None:
                _send(user, ended)

    transaction.on_commit(send)


def on_match_changed(sender: Any, change: events.MatchChanged, **kwargs: Any) -> None:
    if change.kind != Match.Kind.LOBBY:
        return
    if change.reason == events.STARTED:
        tell(list(change.players))
    elif change.reason == events.ENDED:
        tell(list(change.players), change.match_id)


def connect() -> None:
    events.match_changed.connect(on_match_changed, dispatch_uid="playnow.notice")
