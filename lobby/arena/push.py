"""What open arena pages are told: that the arena changed, and nothing else. Each page's socket
(``consumers``) renders the regions for its own reader, in their language, at most once a
second however many matches end meanwhile (a viewer without a place of their own shares the
render of other such viewers in the same language); one change (a match's end and the pairing after
it, a batch of pairs seated) is one message, sent after its commit."""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING

from ginsite.lib.after_commit import group_send_after_commit

if TYPE_CHECKING:
    from .models import Arena


def group_name(public_id: str) -> str:
    return f"arena-{public_id}"


def arena_changed(arena: Arena) -> None:
    """After the commit, tell the arena's pages. The stamp names this change: a page that
    renders for a reader with no place of their own (most viewers: the same regions for
    everyone in one language) takes the render another page made after the same change, if
    there is one (``consumers``)."""
    message = {"type": "arena.changed", "stamp": uuid.uuid4().hex}
    group_send_after_commit(group_name(arena.public_id), message)
