"""The clients' pace and progress: when each match moves, jobs a few at a time, lines on stderr."""

from __future__ import annotations

import asyncio
import random
import sys
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from typing import TypeVar

MOVE_PERIOD = 2.0  # seconds between two moves of one match (and two frames of one relay pair)
PUSH_GRACE = 5.0  # after the last move, how long a push may still arrive before it is lost
T = TypeVar("T")


def say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


class Progress:
    """``label 30/200`` lines on stderr: at every tenth of the way, and at most every 2 s."""

    def __init__(self, label: str, total: int) -> None:
        self.label, self.total, self.done = label, total, 0
        self.shown_at = time.monotonic()
        self.step = max(1, total // 10)

    def tick(self) -> None:
        self.done += 1
        now = time.monotonic()
        if self.done == self.total or self.done % self.step == 0 or now - self.shown_at > 2:
            self.shown_at = now
            say(f"  {self.label} {self.done}/{self.total}")


async def limited(
    jobs: Sequence[Callable[[], Awaitable[T]]], limit: int, progress: Progress | None = None
) -> list[T]:
    """Run ``jobs`` at most ``limit`` at a time; their results in order."""
    gate = asyncio.Semaphore(limit)

    async def run(job: Callable[[], Awaitable[T]]) -> T:
        async with gate:
            result = await job()
        if progress is not None:
            progress.tick()
        return result

    return list(await asyncio.gather(*(run(job) for job in jobs)))


def moments(i: int, count: int, start: float, end: float, pace: str) -> Iterator[float]:
    """When the ``i``-th of ``count`` matches (or relay pairs) moves, from ``start`` until
    ``end``, one move per MOVE_PERIOD on average. ``even``: exactly every MOVE_PERIOD, the
    matches spread evenly over the period, so that no two moves ever meet (kinder than any
    crowd). ``random``: from a random first moment, after a think time drawn from 0.5 to 1.5
    MOVE_PERIOD each time, as independent players move: the moves of many matches together
    bunch up and thin out like a Poisson stream of the same rate. The draws depend on ``i``
    alone, so the relay and the site of one run follow the same moments."""
    draw = random.Random(i)
    even = pace == "even"
    moment = start + (i * MOVE_PERIOD / count if even else draw.uniform(0, MOVE_PERIOD))
    while moment < end:
        yield moment
        moment += MOVE_PERIOD if even else draw.uniform(0.5, 1.5) * MOVE_PERIOD


async def sleep_until(moment: float) -> None:
    await asyncio.sleep(max(0.0, moment - time.perf_counter()))
