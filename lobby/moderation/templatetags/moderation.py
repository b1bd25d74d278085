"""``{% moderation_notice %}``: a signed-in player's notices from moderators on every page
(``_base.html``), until they acknowledge them; ``user|is_moderator`` for the link to the
moderators' pages."""

from __future__ import annotations

from typing import Any

from django import template

from lobby.moderation import access
from lobby.moderation.sanctions import notices

register = template.Library()


@register.inclusion_tag(notices.TEMPLATE, takes_context=True)
def moderation_notice(context: template.Context) -> dict[str, Any]:
    request = context.get("request")
    user = getattr(request, "user", None)
    return notices.context(user, csrf_token=context.get("csrf_token", ""))


@register.filter
def is_moderator(user: Any) -> bool:
    return access.is_moderator(user)
