"""What the lobby hears from ``games``: matches that changed and players at their tables.

Games announces (``games.events``) and knows nothing of the lobby; these receivers are
connected in ``LobbyConfig.ready``. A match change reaches its players' event streams, and a
lobby match that starts, scores a hand or ends re-renders the lobby's lists and "in a match"
badges for everyone with the lobby open. A signed-in player's table socket keeps them online.
"""

from __future__ import annotations

from typing import Any

from games import events
from games.events import MatchChanged
from games.models import Match
from lobby import event_feeds, presence
from lobby.broadcast import publish

# Which lobby regions a change of a lobby match touches: the list of matches in progress (with
# their scores) and the players' "in a match" badges.
_REGIONS_BY_REASON = {
    events.STARTED: ("matches", "players"),
    events.HAND_ENDED: ("matches",),
    events.ENDED: ("matches", "players"),
}


def on_match_changed(
    sender: Any, change: MatchChanged, match: Match | None = None, **kwargs: Any
) -> None:
    event_feeds.match_changed(change, match)
    regions = _REGIONS_BY_REASON.get(change.reason)
    if change.kind == Match.Kind.LOBBY and regions:
        publish(regions)


def on_table_opened(sender: Any, user: Any, channel: str, **kwargs: Any) -> None:
    presence.seen(user, channel)


def on_table_alive(sender: Any, user: Any, channel: str, **kwargs: Any) -> None:
    presence.heartbeat(user, channel)


def on_table_closed(sender: Any, user: Any, channel: str, **kwargs: Any) -> None:
    presence.left(channel)


def connect() -> None:
    events.match_changed.connect(on_match_changed, dispatch_uid="lobby.match_changed")
    events.table_opened.connect(on_table_opened, dispatch_uid="lobby.table_opened")
    events.table_alive.connect(on_table_alive, dispatch_uid="lobby.table_alive")
    events.table_closed.connect(on_table_closed, dispatch_uid="lobby.table_closed")
