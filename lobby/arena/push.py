"""What open arena pages are told: that the arena changed, and nothing else. Each page's socket
(``consumers``) renders the regions for its own reader, in their language, at most once a
second however many matches end meanwhile (a viewer without a place of their own shares the
render of other such viewers in the same language); one change (a match's end and the pairing after
it, a batch of pairs seated) is one message, sent after its commit."""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING

from ginsite.lib.after_commit import group_send_after_commit
from lobby.broadcast import publish

if TYPE_CHECKING:
    from .models import Arena


# The home page's list of the site's arenas (``consumers.ArenaListConsumer``); the lobby's
# pages hear the same change as their "arenas" region.
LIST_GROUP = "arena-list"


def group_name(public_id: str) -> str:
    return f"arena-{public_id}"


def list_changed() -> None:
    """After the commit, tell every page that lists the site's arenas (the home page, the
    lobby) that the list changed: an arena was made, started, or is over. Each page renders the
    list for its own reader, in their language, the countdowns ticking in arena.js."""
    publish(["arenas"])
    group_send_after_commit(LIST_GROUP, {"type": "arenas.changed"})


def arena_changed(arena: Arena) -> None:
    """After the commit, tell the arena's pages. The stamp names this change: a page that
    renders for a reader with no place of their own (most viewers: the same regions for
    everyone in one language) takes the render another page made after the same change, if
    there is one (``consumers``)."""
    message = {"type": "arena.changed", "stamp": uuid.uuid4().hex}
    group_send_after_commit(group_name(arena.public_id), message)
