"""The floor of a live run: socket pairs through a bare Channels relay, at the matches' moments."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import Counter
from dataclasses import dataclass

from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed

from bench.harness.connections import CONNECT_CONCURRENCY, close_sockets, open_socket
from bench.harness.pacing import (
    MOVE_PERIOD,
    PUSH_GRACE,
    Progress,
    limited,
    moments,
    say,
    sleep_until,
)
from bench.harness.servers import Server
from bench.harness.stats import Summary, summarize


@dataclass
class RelayResult:
    latency: Summary
    errors: dict[str, int]
    cpu_seconds: dict[str, float]


async def run_relay(servers: list[Server], pairs: int, seconds: float, pace: str) -> RelayResult:
    """``pairs`` pairs of sockets; A sends a frame at the moments of the site's matches
    (``moments``), B receives it through the channel layer. A and B sit on different workers
    when there are several, like the two players of a match."""
    sent: dict[str, float] = {}
    latencies: list[float] = []
    errors: Counter[str] = Counter()
    closing = False

    def url(i: int) -> str:
        return f"ws://127.0.0.1:{servers[i % len(servers)].port}/relay/{i // 2}/"

    async def open_pair(i: int) -> tuple[ClientConnection, ClientConnection]:
        return await open_socket(url(2 * i)), await open_socket(url(2 * i + 1))

    async def listen(ws: ClientConnection) -> None:
        with contextlib.suppress(ConnectionClosed):
            async for frame in ws:
                started = sent.pop(str(frame), None)
                if started is not None:
                    latencies.append(time.perf_counter() - started)
        if not closing:
            errors[f"relay socket closed by the server ({ws.close_code})"] += 1

    progress = Progress("relay: opened pairs", pairs)
    opened = await limited(
        [lambda i=i: open_pair(i) for i in range(pairs)], CONNECT_CONCURRENCY, progress
    )
    listeners = [asyncio.create_task(listen(b)) for _a, b in opened]
    cpu_before = {s.name: s.cpu() for s in servers}
    start = time.perf_counter() + 0.5
    end = start + seconds

    async def speak(i: int, ws: ClientConnection) -> None:
        for k, moment in enumerate(moments(i, pairs, start, end, pace)):
            await sleep_until(moment)
            key = f"{i}:{k}"
            sent[key] = time.perf_counter()
            try:
                await ws.send(key)
            except ConnectionClosed:
                sent.pop(key, None)
                return

    every = f"a frame per pair every {MOVE_PERIOD:.0f} s ({pace})"
    say(f"  relay: {pairs} pairs, {every} for {seconds:.0f} s")
    await asyncio.gather(*(speak(i, a) for i, (a, _b) in enumerate(opened)))
    deadline = time.perf_counter() + PUSH_GRACE
    while sent and time.perf_counter() < deadline:
        await asyncio.sleep(0.05)
    cpu = {s.name: round(s.cpu() - cpu_before[s.name], 2) for s in servers}
    if sent:
        errors["relay frame never received"] += len(sent)
    closing = True
    await close_sockets([ws for pair in opened for ws in pair])
    await asyncio.gather(*listeners)
    return RelayResult(summarize(latencies), dict(errors), cpu)
