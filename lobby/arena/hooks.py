"""What arenas hear: a lobby match's end (its points, in the ending's own transaction, as the
ratings count theirs), and the sweep every worker runs (``sweep``)."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import events
from games.events import MatchChanged
from games.models import Match
from games.table import add_ons

from . import of_match, service
from .models import ArenaMatch


def on_match_changed(sender: Any, change: MatchChanged, **kwargs: Any) -> None:
    if change.kind == Match.Kind.LOBBY and change.reason == events.ENDED:
        service.count(change.match_id)


def table_links(match: Match, seat: int | None) -> dict[int, list[tuple[str, str]]]:
    """At an arena's match, beside the reader's own name: the arena's time left and their
    place, linking to the arena's page (in the reader's language: the table renders it)."""
    if seat is None or match.kind != Match.Kind.LOBBY:
        return {}
    played = ArenaMatch.objects.filter(match=match).select_related("arena").first()
    if played is None:
        return {}
    arena = played.arena
    user_id = played.first_id if seat == 0 else played.second_id
    left = max(0, int((arena.ends_at - timezone.now()).total_seconds()) // 60)
    rank = service.rank_of(arena, user_id)
    if service.phase(arena) == service.RUNNING:
        text = ngettext("Arena: %(left)s minute left", "Arena: %(left)s minutes left", left) % {
            "left": left
        }
    else:
        text = _("Arena: time is up")
    if rank is not None:
        text += ", " + _("you are number %(rank)s") % {"rank": rank}
    return {seat: [(reverse("arena:page", args=[arena.public_id]), text)]}


def match_fields(match: Match) -> dict[str, Any]:
    """The API's match JSON names the arena a lobby match is played in (other kinds: no query)."""
    if match.kind != Match.Kind.LOBBY:
        return {"arena": None}
    return {"arena": of_match.arena_of(match.pk, match.public_id)}


def connect() -> None:
    events.match_changed.connect(on_match_changed, dispatch_uid="arena-points")
    add_ons.seat_links.append(table_links)
    if match_fields not in add_ons.match_fields:
        add_ons.match_fields.append(match_fields)
