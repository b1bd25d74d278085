from __future__ import annotations

from typing import Any

from django import template

from lobby.oauth import access, scopes

register = template.Library()


@register.inclusion_tag("oauth/settings_apps.html", takes_context=True)
def authorized_apps(context: dict[str, Any]) -> dict[str, Any]:
    """Settings' "Apps" section: the apps the player let in, each with a Revoke button."""
    request = context["request"]
    return {
        "apps": access.authorized(request.user),
        "descriptions": scopes.DESCRIPTIONS,
        "csrf_token": context.get("csrf_token"),
    }
