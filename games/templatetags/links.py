"""``{% absolute_url name arg ... %}``: the whole address of a page of the site, as the request
reached it, for a link to copy and send (a private table's invitation)."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse

register = template.Library()


@register.simple_tag(takes_context=True)
def absolute_url(context: template.Context, name: str, *args: Any) -> str:
    return context["request"].build_absolute_uri(reverse(name, args=args))
