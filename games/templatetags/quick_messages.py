"""``{% quick_messages %}``: the table's quick-message panel for the page's reader, from the
table's own context (its match, seat and whether the reader watches), so that the table's
views and regions need nothing of it."""

from __future__ import annotations

from typing import Any

from django import template

from games.live import quick_messages

register = template.Library()


@register.inclusion_tag("games/_quick_messages.html", takes_context=True)
def quick_messages_panel(context: template.Context) -> dict[str, Any]:
    match = context.get("match")
    # A private table shows the panel while the second seat is still open too: the page stays
    # loaded when the friend sits down (the panel is no pushed region), and a message sent
    # before then is refused with the reason.
    if match is None or context.get("local") or match.kind not in quick_messages.KINDS:
        return {"shown": False}
    spectator = bool(context.get("spectator"))
    seat = None if spectator else context.get("seat")
    reader = quick_messages.reader_key(seat, context.get("user"))
    return {
        "shown": True,
        "match": match,
        "can_send": seat is not None,
        "can_mute": reader is not None,
        "muted": quick_messages.is_muted(match.pk, reader),
        "phrases": list(quick_messages.MESSAGES.items()),
        "csrf_token": context.get("csrf_token"),
    }
