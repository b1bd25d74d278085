"""``{% card c %}``: one playing card as a player expects to see it: the rank and suit in two
opposite corners, a large suit (or a face card's mark) in the middle, red or black (or the
four-colour deck's colours, chosen in CSS from the suit class)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html

from games.labels import card as card_data

register = template.Library()

FLAGS = ("melded", "laid_off", "hinted", "fresh", "known", "just_drawn")
# Drawn in the middle of a face card, in the suit's colour: king, queen, knave.
FACE_MARKS = {"K": "♚", "Q": "♛", "J": "♞"}


@register.simple_tag
def card(value: dict[str, Any] | str, extra: str = "") -> str:
    """A card from ``labels.card`` (or a bare code), with CSS classes for its flags."""
    data = card_data(value) if isinstance(value, str) else value
    classes = ["card", "red" if data["red"] else "black"]
    classes += [flag.replace("_", "-") for flag in FLAGS if data.get(flag)]
    if extra:
        classes.append(extra)
    rank_code = data["code"][0]
    classes.append(f"suit-{data['code'][1]}")
    face = FACE_MARKS.get(rank_code)
    if face:
        classes.append("face")
    elif rank_code == "A":
        classes.append("ace")
    return format_html(
        '<span class="{}" data-code="{}" role="img" aria-label="{}" title="{}">'
        '<span class="corner" aria-hidden="true"><span class="rank">{}</span>'
        '<span class="suit">{}</span></span>'
        '<span class="pip" aria-hidden="true">{}</span></span>',
        " ".join(classes),
        data["code"],
        data["name"],
        data["name"],
        data["rank"],
        data["suit"],
        face or data["suit"],
    )
