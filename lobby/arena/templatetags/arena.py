"""The arenas on other apps' pages, without those apps importing this one: the list of
arenas on the home page and in the lobby (``arena_list``), a player's arenas and places on
their profile (``player_arenas``), and the countdown's text (``clock``)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils import timezone

from lobby.arena import schedule, service
from lobby.arena.models import ArenaPlayer

register = template.Library()


@register.filter
def clock(seconds: Any) -> str:
    """Seconds as H:MM:SS, or M:SS under an hour."""
    total = max(0, int(seconds or 0))
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes}:{secs:02}"


def rows(arenas: list[Any]) -> list[dict[str, Any]]:
    now = timezone.now()
    found = []
    for arena in arenas:
        phase = service.phase(arena, now)
        until = arena.starts_at if phase == service.UPCOMING else arena.ends_at
        found.append(
            {
                "arena": arena,
                "title": schedule.title(arena),
                "phase": phase,
                "until": until,
                "seconds": max(0, int((until - now).total_seconds())),
            }
        )
    return found


@register.inclusion_tag("arena/_list.html")
def arena_list(limit: int = 4, oob: bool = False) -> dict[str, Any]:
    """The next few of the site's arenas (``oob``: as a push's out-of-band swap)."""
    return {"rows": rows(service.listed(limit=limit)), "oob": oob}


@register.inclusion_tag("arena/_player_arenas.html")
def player_arenas(player: Any, limit: int = 10) -> dict[str, Any]:
    """The arenas the player played in that are over, newest first, with their places."""
    places = ArenaPlayer.objects.filter(user_id=player.pk, arena__finished_at__isnull=False)
    played = list(places.select_related("arena").order_by("-arena__starts_at")[:limit])
    return {
        "played": [
            {
                "arena": p.arena,
                "title": schedule.title(p.arena),
                "rank": service.rank_of(p.arena, player.pk),
                "points": p.points,
            }
            for p in played
        ]
    }
