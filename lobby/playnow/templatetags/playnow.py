"""``{% playnow_notice %}``: where a player playing Bea while they wait in the pool is told a
person was found (``_base.html``; ``lobby.playnow.notice``). Only a table against Bea reads
the pool for it; every other page holds the empty region, for a push to fill."""

from __future__ import annotations

from typing import Any

from django import template

from games.models import Match
from lobby.playnow import notice

register = template.Library()


@register.inclusion_tag(notice.TEMPLATE, takes_context=True)
def playnow_notice(context: template.Context) -> dict[str, Any]:
    request = context.get("request")
    user = getattr(request, "user", None)
    match = context.get("match")
    if not isinstance(match, Match) or match.kind != Match.Kind.BEA:
        return {"place": None}
    return notice.context(user, csrf_token=context.get("csrf_token", ""))
