"""What open arena pages are told: that the arena changed, and nothing else. Each page's socket
(``consumers``) renders the regions for its own reader, in their language, at most once a
second however many matches end meanwhile; one change (a match's end and the pairing after
it, a batch of pairs seated) is one message, sent after its commit."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ginsite.lib.after_commit import group_send_after_commit

if TYPE_CHECKING:
    from .models import Arena


def group_name(public_id: str) -> str:
    return f"arena-{public_id}"


def arena_changed(arena: Arena) -> None:
    group_send_after_commit(group_name(arena.public_id), {"type": "arena.changed"})
