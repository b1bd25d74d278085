"""What a server process did, moment by moment, for the live benchmark (``bench.live
--timeline``): with ``GIN_TIMELINE`` naming a directory, each process writes a line of JSON per
event to ``<directory>/<pid>.jsonl``, once a second and when it exits.

Every line has ``k`` (the kind), ``t`` (when it began, ``time.perf_counter()``: the machine's
monotonic clock, the same in every process) and ``ms`` (how long it lasted):

- ``lag``: the event loop ran a 10 ms timer ``ms`` late (from 2 ms): everything else on the
  loop waited as long;
- ``gc``: a collection of generation ``gen`` stopped the process (from 1 ms);
- ``job``: the sweep thread ran ``name`` (deliveries, Bea's turns, pairing passes, arenas);
- ``pool``: socket work ``name`` (``ginsite.lib.dbwork.in_thread``) waited ``wait`` ms for a
  thread of the loop's pool, then ran ``ms`` (from 5 ms together);
- ``lane``: an HTTP request to ``path`` waited ``wait`` ms for a lane
  (``ginsite.serving.lanes``), then held it ``ms``.

Unset (as on the site), every hook costs one test of ``ON``.
"""

from __future__ import annotations

import asyncio
import atexit
import gc
import json
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

DIRECTORY = os.environ.get("GIN_TIMELINE", "")
ON = bool(DIRECTORY)
PROBE_SECONDS = 0.01
LAG_FROM_MS = 2.0
GC_FROM_MS = 1.0
POOL_FROM_MS = 5.0

_lines: list[str] = []
_lock = threading.Lock()
_started = False
_gc_began = 0.0


def note(kind: str, began: float, ms: float, **fields: Any) -> None:
    """One event, kept until the next write."""
    line = json.dumps({"k": kind, "t": round(began, 5), "ms": round(ms, 2), **fields})
    with _lock:
        _lines.append(line)


@contextmanager
def span(kind: str, name: str) -> Iterator[None]:
    """The block, noted as ``kind`` named ``name`` with how long it took."""
    began = time.perf_counter()
    try:
        yield
    finally:
        note(kind, began, (time.perf_counter() - began) * 1000, name=name)


def timed(kind: str, name: str, fn: Callable[[], Any]) -> Callable[[], Any]:
    """``fn``, each call noted as a ``span`` (the sweep's jobs)."""

    def call() -> Any:
        with span(kind, name):
            return fn()

    return call


def start() -> None:
    """From the server's event loop (its first request): the loop's probe, the collector's
    callbacks, and the thread that writes the lines out. Once per process; nothing when off."""
    global _started
    if not ON or _started:
        return
    _started = True
    asyncio.get_running_loop().create_task(_probe())
    gc.callbacks.append(_collected)
    threading.Thread(target=_write_every_second, name="timeline", daemon=True).start()
    atexit.register(_write)


async def _probe() -> None:
    while True:
        began = time.perf_counter()
        await asyncio.sleep(PROBE_SECONDS)
        late = (time.perf_counter() - began - PROBE_SECONDS) * 1000
        if late >= LAG_FROM_MS:
            note("lag", began + PROBE_SECONDS, late)


def _collected(phase: str, info: dict[str, Any]) -> None:
    global _gc_began
    if phase == "start":
        _gc_began = time.perf_counter()
        return
    ms = (time.perf_counter() - _gc_began) * 1000
    if ms >= GC_FROM_MS:
        note("gc", _gc_began, ms, gen=info.get("generation"))


def _write_every_second() -> None:
    while True:
        time.sleep(1)
        _write()


def _write() -> None:
    with _lock:
        lines = _lines[:]
        _lines.clear()
    if lines:
        path = Path(DIRECTORY) / f"{os.getpid()}.jsonl"
        with path.open("a") as out:
            out.write("\n".join(lines) + "\n")
