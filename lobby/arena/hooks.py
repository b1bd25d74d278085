"""What arenas hear: a lobby match's end (its points, in the ending's own transaction, as the
ratings count theirs), and the sweep every worker runs (``sweep``)."""

from __future__ import annotations

from typing import Any

from games import events
from games.events import MatchChanged
from games.models import Match

from . import service


def on_match_changed(sender: Any, change: MatchChanged, **kwargs: Any) -> None:
    if change.kind == Match.Kind.LOBBY and change.reason == events.ENDED:
        service.count(change.match_id)


def connect() -> None:
    events.match_changed.connect(on_match_changed, dispatch_uid="arena-points")
