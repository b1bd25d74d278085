"""``{% lesson_offer %}``: the home page's offer of the guided first hand (games.lesson), for a
visitor who has not played yet and has not said "no thanks"."""

from __future__ import annotations

from typing import Any

from django import template

from games.lesson import matches

register = template.Library()


@register.inclusion_tag("games/_lesson_offer.html", takes_context=True)
def lesson_offer(context: dict[str, Any]) -> dict[str, Any]:
    request = context.get("request")
    return {
        "offered": request is not None and matches.offered(request),
        "csrf_token": context.get("csrf_token"),
    }
