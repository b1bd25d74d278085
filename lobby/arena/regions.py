"""The arena page's regions, for one reader: the full page, an htmx answer and a socket's push
render the same partials (``templates/arena/arena.html``) from ``context``. A socket's push
starts from a ``snapshot``: each region without the rows of its lists (``live``), and each row
apart, keyed, so that ``consumers.changes`` sends a page only the rows that changed."""

from __future__ import annotations

from typing import Any

from django.template.loader import get_template, render_to_string
from django.utils import timezone

from . import schedule, service
from .models import Arena

REGIONS = ("head", "me", "pairings", "standings")  # what the page's socket pushes
ANSWERED = ("notice", *REGIONS)  # what the answer to a button sends
STANDINGS_SHOWN = 100
# The list regions' rows: (the list's name, the row's partial, the context's list, its name in
# the row, the row's key).
LISTS = (
    ("pairings", "pairing_row", "pairings", "played", lambda played: played.match.public_id),
    ("standings", "standing_row", "standings", "s", lambda s: str(s.player.pk)),
)


def context(arena: Arena, user: Any, **extra: Any) -> dict[str, Any]:
    now = timezone.now()
    phase = service.phase(arena, now)
    until = arena.starts_at if phase == service.UPCOMING else arena.ends_at
    board = service.standings(arena)
    place = service.place_of(user, arena)
    mine = next((s for s in board if place is not None and s.player.pk == place.pk), None)
    return {
        "arena": arena,
        "title": schedule.title(arena),
        "phase": phase,
        "minutes": round((arena.ends_at - arena.starts_at).total_seconds() / 60),
        "countdown_to": until,
        "seconds_left": max(0, int((until - now).total_seconds())),
        "standings": board[:STANDINGS_SHOWN],
        "players_count": len(board),
        "pairings": service.running_matches(arena) if phase != service.OVER else [],
        "podium": board[:3] if phase == service.OVER else [],
        "place": place,
        "my_standing": mine,
        "playing": service.playing_now(arena, place.user_id) if place is not None else None,
        "signed_in": bool(getattr(user, "is_authenticated", False)),
        **extra,
    }


def render_regions(arena: Arena, user: Any, names: tuple[str, ...] = ANSWERED, **extra: Any) -> str:
    """The named regions as htmx out-of-band swaps, in the current language."""
    ctx = context(arena, user, oob=True, **extra)
    return "".join(
        render_to_string(f"arena/arena.html#{name}", ctx, request=extra.get("request"))
        for name in names
    )


def snapshot(arena: Arena, user: Any) -> dict[str, Any]:
    """What a socket's push starts from (``consumers.changes``): each region's element id and
    HTML without its rows, and each list's rows in order as [key, HTML] (a standings row
    without its rank: the page numbers its rows)."""
    ctx = context(arena, user, oob=True, live=True)
    shells = {
        f"arena-{name}": render_to_string(f"arena/arena.html#{name}", ctx) for name in REGIONS
    }
    rows = {}
    for name, partial, items, as_name, key in LISTS:
        template = get_template(f"arena/arena.html#{partial}")
        rows[name] = [[key(item), template.render({**ctx, as_name: item})] for item in ctx[items]]
    return {"regions": shells, "rows": rows}
