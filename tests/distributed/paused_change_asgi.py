"""The site's ASGI application, in a process that stops inside a change's transaction: a move
as it announces itself (``games.outbox.announce`` runs in the move's transaction) and a new seek
as it publishes itself (inside its own). There it writes the file named by ``GIN_PAUSED_AT`` and
sleeps, and the crash test kills it: nothing of the change is committed yet."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from ginsite.asgi import application

# isort: split
# (ginsite.asgi sets Django up first.)
from games import outbox
from lobby.services import seeks

PAUSE_SECONDS = 120.0


def _paused(real: Any) -> Any:
    def pause(*args: Any, **kwargs: Any) -> Any:
        Path(os.environ["GIN_PAUSED_AT"]).write_text("paused")
        time.sleep(PAUSE_SECONDS)
        return real(*args, **kwargs)

    return pause


outbox.announce = _paused(outbox.announce)  # type: ignore[assignment]
seeks.publish = _paused(seeks.publish)  # type: ignore[assignment]

__all__ = ["application"]
