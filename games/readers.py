"""What each reader of a match may see of it now.

A reader is a seat (0 or 1), a watcher (``WATCHER``), or nobody (no access: the callers
answer 404); which one a request or a socket is, ``games.access`` says. ``view_for`` is the
one answer to "what may this reader see of this match now": the engine's view for the seat
(or the spectator view), the live state of the table, the match's status, the legal actions
(none once the match is closed, none out of turn) and why the seat's moves are blocked. HTML
regions, JSON answers and every websocket frame render from it (DESIGN.md principle 8), so a
rule lives here and not in one renderer.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.engine import player_view as engine_player_view
from games.engine import spectator_view as engine_spectator_view
from games.live.connection import live_state
from games.table import add_ons as extras
from ginsite.lib.apikit import api_time

from .models import Match, Seat
from .state_cache import load_state, pending_views

WATCHER = None


def bea_seat(match: Match) -> Seat | None:
    for seat in match.seats.all():
        if seat.kind == Seat.Kind.BEA:
            return seat
    return None


def view_for(match: Match, seat: int | None) -> dict[str, Any]:
    """What the reader in ``seat`` (``WATCHER``: someone watching) may see of ``match`` now.

    The engine's ``player_view`` for a seat or its ``spectator_view`` for a watcher, plus
    ``live`` (presence and offers between two people, else None), ``match_status``, and
    ``blocked``: why this seat cannot make the moves it would have, or "". A closed match
    (resigned, abandoned, claimed, restarted) offers nobody a move.

    Inside a change's transaction (``state_cache.pending``) each reader's view is rendered
    once, for the change's events and the mover's answer alike; each caller gets its own copy
    of the view's top level to change.
    """
    rendered = pending_views(match)
    if rendered is not None and seat in rendered:
        return dict(rendered[seat])
    view = _render(match, seat)
    if rendered is None:
        return view
    rendered[seat] = view
    return dict(view)


def _render(match: Match, seat: int | None) -> dict[str, Any]:
    state = load_state(match)
    view = engine_spectator_view(state) if seat is WATCHER else engine_player_view(state, seat)
    view["live"] = live_state(match, seat)
    view["match_status"] = match.status
    if not match.is_active and view["phase"] != "match_over":
        view["legal_actions"] = []
        view["to_act"] = None
        if "deadwood_after_discard" in view:
            view["deadwood_after_discard"] = None
    view["blocked"] = _blocked_reason(view) if seat is not WATCHER else ""
    shuffle = view.get("shuffle")
    if shuffle and shuffle.get("awaiting") and match.deal_due is not None:
        # When the hand is dealt without the seeds still awaited (docs/fairness.md).
        shuffle["deal_by"] = api_time(match.deal_due)
    rules = extras.kinds.get(match.kind)
    if rules is not None and seat is not WATCHER:
        rules.add_to_view(state, seat, view)  # a lesson's progress (games.lesson.hooks)
    return view


def _blocked_reason(view: dict[str, Any]) -> str:
    """At a private table a seat may move only while the other player is connected: why its
    buttons are disabled now, or "" when they are not. (The server refuses such moves anyway;
    the page's own connection is left out, as it is still opening when the page first loads.)"""
    live = view.get("live") or {}
    # A seed is no move: it is taken whoever is at the table.
    if "open" not in live or not view["legal_actions"] or view["phase"] == "shuffling":
        return ""
    other = 1 - view["seat"]
    if live["open"][other]:
        return _(
            "Waiting for your friend to open the invitation link: play starts when both "
            "players are at the table."
        )
    if not live["connected"][other]:
        return _("%(name)s is not connected. Moves wait until both players are at the table.") % {
            "name": live["names"][other]
        }
    return ""
