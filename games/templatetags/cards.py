"""``{% card c %}``: one playing card, drawn with its glyph (10♦), red or black."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html

from games.regions import card as card_data

register = template.Library()

FLAGS = ("melded", "laid_off", "hinted", "fresh", "known")


@register.simple_tag
def card(value: dict[str, Any] | str, extra: str = "") -> str:
    """A card from ``regions.card`` (or a bare code), with CSS classes for its flags."""
    data = card_data(value) if isinstance(value, str) else value
    classes = ["card", "red" if data["red"] else "black"]
    classes += [flag.replace("_", "-") for flag in FLAGS if data.get(flag)]
    if extra:
        classes.append(extra)
    return format_html(
        '<span class="{}" role="img" aria-label="{}" title="{}">'
        '<span class="rank">{}</span><span class="suit">{}</span></span>',
        " ".join(classes),
        data["name"],
        data["name"],
        data["rank"],
        data["suit"],
    )
