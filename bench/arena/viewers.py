"""The open arena pages of ``bench.arena``, in a process of their own, as browsers are.

    python -m bench.arena.viewers '[["ws://.../ws/arena/ID/", "http://..."], ...]'

Opens one socket per (url, origin) pair, records when each frame came (wall clock) and how big it
was, until its standard input closes; then prints ``{"frames": [[[t, bytes], ...], ...],
"errors": [...]}`` on standard output. ``bench.arena`` runs it beside its bots: in the bots'
process the viewers' own clock would read a frame late whenever 300 bot threads hold the
interpreter, which no viewer's browser does.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time

from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed


class Viewer:
    """One open arena page: the frames its socket got, when, and how big."""

    def __init__(self) -> None:
        self.frames: list[tuple[float, int]] = []
        self.errors: list[str] = []

    async def watch(self, url: str, origin: str, stop: asyncio.Event) -> None:
        try:
            async with ws_connect(url, origin=origin, max_size=None) as ws:  # type: ignore[arg-type]
                while not stop.is_set():
                    try:
                        async with asyncio.timeout(1.0):
                            frame = await ws.recv()
                    except TimeoutError:
                        continue
                    self.frames.append((time.time(), len(frame)))
        except (OSError, ConnectionClosed) as gone:
            self.errors.append(type(gone).__name__)


async def _until_stdin_closes(stop: asyncio.Event) -> None:
    await asyncio.to_thread(sys.stdin.read)
    stop.set()


async def main(pages: list[tuple[str, str]]) -> dict[str, object]:
    stop = asyncio.Event()
    viewers = [Viewer() for _ in pages]
    watching = [
        asyncio.create_task(v.watch(url, origin, stop))
        for v, (url, origin) in zip(viewers, pages, strict=True)
    ]
    await _until_stdin_closes(stop)
    await asyncio.gather(*watching)
    return {
        "frames": [v.frames for v in viewers],
        "errors": [e for v in viewers for e in v.errors],
    }


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main([tuple(p) for p in json.loads(sys.argv[1])]))))
