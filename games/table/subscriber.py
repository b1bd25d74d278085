"""The table's subscriber: every open table page hears that its match changed.

The group message carries the new version, why it changed and no card (``{"type":
"match.updated", "version": 12, "reason": "moved"}``); each consumer then renders its own
reader's view (``games.web.table_socket``), unless it shows that move already.
"""

from __future__ import annotations

from typing import Any

from games.events import MatchChanged
from games.models import table_group
from ginsite.lib.after_commit import group_send_after_commit


def on_change(sender: Any, change: MatchChanged, **kwargs: Any) -> None:
    message = {"type": "match.updated", "version": change.version, "reason": change.reason}
    group_send_after_commit(table_group(change.public_id), message)
