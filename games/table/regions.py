"""The table's regions: which ones a change touched, and their HTML.

A region is a template partial of ``games/table.html`` with a stable id. The full page renders
them all; an htmx response or a websocket push sends only the ones that changed, as out-of-band
swaps.

Which ones changed is derived from one declaration per region, ``REGIONS``: the facts of the
view it renders from (a field of ``player_view``, or one of the few facts ``FACTS`` derives from
it). A region changed iff one of its facts did. Two more things a partial shows are declared
with it: ``shown_if``, the fact without which the region is empty (and so depends on nothing),
and ``form_if``, the fact while which its form is shown and carries the view's version (a
hidden input that must follow every move). Declaring facts of the view rather than diffing two
renderings is deliberate: the context also reads the match row and its seats as they are now,
so rendering the view a page was drawn from would not draw that page again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.template.loader import render_to_string

from .context import incoming_offer, match_over, spectator_as_view, table_context

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from django.http import HttpRequest

    from games.models import Match


@dataclass(frozen=True)
class Region:
    reads: tuple[str, ...]
    shown_if: str = ""
    form_if: str = ""


# The status names the last move (so it reads the version) and an offer to answer; a hint is
# stale after any move; a notice is about the previous request. A private table's names
# change when a newcomer takes the second seat.
_TURN = ("version", "phase", "match_status", "blocked", "live.names")

REGIONS: dict[str, Region] = {
    "version": Region(("version",)),
    "notice": Region(_TURN),
    # A lesson that was left says so.
    "lesson": Region(("lesson", "match_status"), shown_if="lesson"),
    "status": Region((*_TURN, "incoming_offer")),
    # Presence and offers change without a move.
    "live": Region(("live", "match_status"), shown_if="live", form_if="live"),
    # The move clock and the claim: whose turn it is decides whose clock runs.
    "clock": Region(("live", "match_status", "to_act"), shown_if="live", form_if="live"),
    "answer": Region(("incoming_offer",), shown_if="incoming_offer", form_if="incoming_offer"),
    "scores": Region(("scores", "hands_won", "hand_number", "dealer", "live.names")),
    "opponent": Region(
        ("opponent_card_count", "known_opponent_cards", "ended", "match_status", "live.names")
    ),
    "pile": Region(("discard_pile", "stock_count", "draws", "blocked"), form_if="draws"),
    "hand": Region(
        ("hand", "arrangement", "deadwood_after_discard", "discards", "ended", "spectated")
    ),
    "actions": Region(
        ("legal_actions", "shuffle", "phase", "to_act", "match_status", "blocked", "live.open"),
        form_if="legal_actions",
    ),
    "hint": Region(_TURN),
    "result": Region(("last_hand", "settlement", "ended", "match_status")),
    # What follows a match: offers and the next match change without a move.
    "after": Region(
        ("match_status", "live.next", "live.offer", "live.answered"),
        shown_if="match_over",
        form_if="match_over",
    ),
    "history": Region(("history", "moves", "shuffle")),
}


def _moves_of(*kinds: str) -> Callable[[dict[str, Any]], list[dict[str, Any]]]:
    return lambda view: [a for a in view["legal_actions"] if a["type"] in kinds]


# The facts of a view that are not one of its fields.
FACTS: dict[str, Callable[[dict[str, Any]], Any]] = {
    "ended": lambda view: view["phase"] in ("hand_over", "match_over"),
    "draws": _moves_of("draw", "take_upcard"),
    "discards": _moves_of("discard", "knock", "gin"),
    "incoming_offer": incoming_offer,
    "match_over": match_over,
}


def _fact(view: dict[str, Any], name: str) -> Any:
    if name in FACTS:
        return FACTS[name](view)
    field, _dot, key = name.partition(".")
    value = view.get(field)
    return (value or {}).get(key) if key else value


def region_data(view: dict[str, Any], name: str) -> Any:
    """What region ``name`` renders from ``view``: it changed iff this changed."""
    region = REGIONS[name]
    if region.shown_if and _fact(view, region.shown_if) in (None, False):
        return None
    data = tuple(_fact(view, fact) for fact in region.reads)
    if region.form_if and _fact(view, region.form_if):
        data += (view["version"],)
    return data


def changed_regions(before: dict[str, Any] | None, after: dict[str, Any]) -> list[str]:
    """The regions whose data differs between two views of one reader (all of them without a
    ``before``). Both views come from ``readers.view_for``."""
    if before is None:
        return list(REGIONS)
    return [name for name in REGIONS if region_data(before, name) != region_data(after, name)]


def render_regions(
    names: Iterable[str],
    context: dict[str, Any],
    request: HttpRequest | None = None,
) -> str:
    """The named regions as out-of-band swaps, concatenated."""
    ctx = {**context, "oob": True}
    return "".join(render_to_string(f"games/table.html#{n}", ctx, request) for n in names)


def render_update(
    match: Match,
    seat: int,
    before: dict[str, Any] | None,
    after: dict[str, Any],
    *,
    request: HttpRequest | None = None,
    notice: str = "",
    always: tuple[str, ...] = ("notice",),
    spectator: bool = False,
    csrf_token: str = "",
) -> str:
    """The out-of-band HTML that brings a page showing ``before`` to ``after`` for ``seat``
    (or a watcher, with ``spectator``); both views come from ``readers.view_for``.

    This is what the htmx views answer and what a websocket consumer pushes to each reader.
    """
    if spectator:
        before = spectator_as_view(before) if before is not None else None
        after = spectator_as_view(after)
    names = changed_regions(before, after)
    names = [n for n in REGIONS if n in names or n in always]
    if not names:
        return ""
    context = table_context(match, seat, after, notice=notice, spectator=spectator)
    if request is None:
        # Pushed over a socket: no request, so the forms take the token from the cookie.
        # Without one they render no token field and htmx's X-CSRFToken header carries it.
        context["csrf_token"] = csrf_token
    return render_regions(names, context, request)
