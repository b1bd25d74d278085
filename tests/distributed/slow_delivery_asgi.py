"""The site's ASGI application, in a process that is slow after a commit: each push to the
sockets waits a few seconds first. The crash test kills such a process in that window, after a
move and its events committed and before anyone was told of them."""

from __future__ import annotations

import time

from ginsite.asgi import application

# isort: split
# (ginsite.asgi sets Django up first.)
from ginsite.lib import after_commit as pushes

_send_now = pushes.send_now
WINDOW_SECONDS = 5.0


def _slow_send_now(messages: list[pushes.Message]) -> None:
    time.sleep(WINDOW_SECONDS)
    _send_now(messages)


pushes.send_now = _slow_send_now  # type: ignore[assignment]

__all__ = ["application"]
