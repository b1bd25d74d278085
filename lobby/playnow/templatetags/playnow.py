"""``{% playnow_notice %}``: where a player playing Bea while they wait in the pool is told a
person was found, and that person that their opponent is finishing a hand against Bea
(``_base.html``; ``lobby.playnow.notice``). Only a table against Bea and a live lobby match's
table read the pool for it; every other page holds the empty region, for a push to fill."""

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
    csrf_token = context.get("csrf_token", "")
    if not isinstance(match, Match):
        return {"place": None}
    if match.kind == Match.Kind.BEA:
        return notice.context(user, csrf_token=csrf_token)
    if match.kind == Match.Kind.LOBBY and match.is_active and not match.days_per_move:
        # The person the pool seated here: is their opponent still at Bea's table?
        return notice.context(user, table=match, csrf_token=csrf_token)
    return {"place": None}
