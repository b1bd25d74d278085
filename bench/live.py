"""Load benchmark of live play: ``python -m bench.live [--matches N] [--seconds S] [--quick]``.

Starts the site itself, on loopback ports it picks, in up to three configurations: ``embedded``
(a SQLite file in a temporary directory, the in-memory channel layer, one daphne), ``pg1``
(PostgreSQL and Redis, one daphne) and ``pg2`` (the same with two daphne workers, the players
spread over them so that every push crosses processes). Each configuration gets a fresh
database (dropped at the end) and, with Redis, a flushed Redis database of its own.

In each one it measures, in the same run and at the same number of pairs and pace:

* the floor: a bare Channels relay (``bench.live_relay``) under daphne with the same channel
  layer, where client A sends a frame and client B in the same group receives it;
* the site: 2N players, made in the database with API tokens, each holding its ``/ws/events/``
  socket for the whole run, paired through the public API (challenge, accept), then one move
  per match every one to three seconds posted to ``/api/v1/matches/{id}/actions`` (or, with
  ``--moves socket``, sent as an ``act`` frame over the player's open event socket). It reports
  the move's round trip, the time from sending the move to the opponent's socket receiving the
  ``match`` event of that version, errors, lost or repeated events, server CPU, the RSS of an
  idle event socket, and the ``presence`` events each player received while the lobby filled
  up.

It prints and never asserts. Progress goes to stderr, results to stdout.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import random
import secrets
import signal
import socket
import ssl
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable, Iterator, Sequence
from contextlib import ExitStack
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from bench.live_proxy import Front, nginx_in_front
from ginclient.api import only_seed

ROOT = Path(__file__).resolve().parent.parent
MOVE_PERIOD = 2.0  # seconds between two moves of one match (and two frames of one relay pair)
HTTP_TIMEOUT = 30.0
PUSH_GRACE = 5.0  # after the last move, how long a push may still arrive before it is lost
# The server sends a keep-alive line every 10 s of quiet: an open socket silent for longer than
# this has stopped (the "silent socket" of a pump that failed without closing it).
SILENT_AFTER = 15.0
READY_SECONDS = 30.0
CONNECT_CONCURRENCY = 8
# The idle sockets of the memory measure, per player: well within the API budget a player's
# sockets count against (``API_RATE_LIMIT``, 300 a minute), which play spends from too.
IDLE_SOCKETS_PER_PLAYER = 100
PAIR_CONCURRENCY = 8
IDLE_SOCKETS_MIN = 100
# The options ginsite/settings.py gives its default SQLite database, as a DATABASE_URL query.
SQLITE_OPTIONS = "transaction_mode=IMMEDIATE&timeout=20&init_command=PRAGMA%20journal_mode%3DWAL"
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")

T = TypeVar("T")


def say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


# --- Statistics ---------------------------------------------------------------------------------


def percentile(ordered: Sequence[float], p: float) -> float:
    """The nearest-rank ``p``-th percentile (0 < p <= 100) of values sorted ascending: the
    smallest value with at least p% of the values at or below it."""
    if not ordered:
        raise ValueError("no values")
    rank = math.ceil(p / 100 * len(ordered))
    return ordered[min(max(rank, 1), len(ordered)) - 1]


@dataclass(frozen=True)
class Summary:
    """Latencies in milliseconds."""

    n: int
    p50: float | None = None
    p95: float | None = None
    p99: float | None = None
    max: float | None = None


def summarize(seconds: Iterable[float]) -> Summary:
    ordered = sorted(s * 1000 for s in seconds)
    if not ordered:
        return Summary(0)
    return Summary(
        len(ordered),
        percentile(ordered, 50),
        percentile(ordered, 95),
        percentile(ordered, 99),
        ordered[-1],
    )


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


# --- Processes ----------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a process (/proc/<pid>/stat fields 14 and 15)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def process_tree(pid: int) -> list[int]:
    """``pid`` and its descendants alive now (/proc/<pid>/task/*/children)."""
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        for task in Path(f"/proc/{current}/task").glob("*/children"):
            with contextlib.suppress(OSError):
                todo += [int(child) for child in task.read_text().split()]
    return found


def pace_ms() -> float:
    """The machine's pace now: milliseconds of a fixed pure-Python loop (one core). On a
    shared virtual machine it varies by half from hour to hour with no other process
    running; a run's times mean most beside the pace they ran at."""
    begun = time.perf_counter()
    total = 0
    for i in range(2_000_000):
        total += i * i % 7
    return round((time.perf_counter() - begun) * 1000, 1)


def _machine_ticks() -> list[int]:
    """/proc/stat's CPU line, all cores: user, nice, system, idle, iowait, irq, softirq,
    steal, ..."""
    with open("/proc/stat") as f:
        return [int(v) for v in f.readline().split()[1:]]


def stolen_cpu() -> float:
    """CPU seconds the host gave to others while this machine's cores wanted it (/proc/stat's
    steal): on a shared virtual machine, how much slower a run was than the figures show."""
    ticks = _machine_ticks()
    return ticks[7] / CLOCK_TICKS if len(ticks) > 7 else 0.0


def machine_cpu() -> tuple[float, float]:
    """Busy and total CPU seconds of the whole machine, all cores (/proc/stat)."""
    ticks = _machine_ticks()
    idle = ticks[3] + ticks[4]  # idle, iowait
    return (sum(ticks) - idle) / CLOCK_TICKS, sum(ticks) / CLOCK_TICKS


def rss_bytes(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


# The ASGI servers a run may use (``--server``): daphne, which the site ships with, and the
# ones issue 27 measures against it, each as fast as it is configured to be (uvloop, httptools).
SERVERS = ("daphne", "uvicorn", "granian", "hypercorn")


def server_command(server: str, port: int, app: str) -> list[str]:
    """The command line of one worker process of ``server`` serving ``app`` on ``port``."""
    python, host = sys.executable, "127.0.0.1"
    if server == "uvicorn":
        return [
            *(python, "-m", "uvicorn", "--host", host, "--port", str(port), "--loop", "uvloop"),
            *("--http", "httptools", "--ws", "websockets-sansio", "--lifespan", "off"),
            *("--no-access-log", "--log-level", "warning", app),
        ]
    if server == "granian":
        return [
            *(python, "-m", "granian", "--interface", "asgi", "--host", host),
            *("--port", str(port), "--loop", "uvloop", "--ws", app),
        ]
    if server == "hypercorn":
        return [python, "-m", "hypercorn", "-b", f"{host}:{port}", "-k", "uvloop", app]
    return [python, "-m", "daphne", "-b", host, "-p", str(port), app]


@dataclass
class Server:
    """One ASGI server process (daphne unless said) on a loopback port of its own, logging
    to a file."""

    name: str
    port: int
    process: subprocess.Popen[bytes]
    log: Path

    @classmethod
    def start(
        cls, name: str, app: str, env: dict[str, str], log_dir: Path, server: str = "daphne"
    ) -> Server:
        port = free_port()
        log = log_dir / f"{name}.log"
        with log.open("wb") as out:
            process = subprocess.Popen(
                server_command(server, port, app),
                cwd=ROOT,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        return cls(name, port, process, log)

    async def wait_ready(self, path: str) -> None:
        """Until the server answers ``path`` with anything at all."""
        deadline = time.monotonic() + READY_SECONDS
        http = Http(self.port)
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.name} exited with {self.process.returncode}: {self.log}")
            try:
                await http.call("GET", path)
                return
            except (OSError, asyncio.IncompleteReadError, TimeoutError):
                await asyncio.sleep(0.2)
            finally:
                http.close()
        raise RuntimeError(f"{self.name} was not ready within {READY_SECONDS:.0f} s")

    def cpu(self) -> float:
        """CPU of the server's processes: granian and hypercorn serve from children."""
        return sum(cpu_seconds(pid) for pid in process_tree(self.process.pid))

    def rss(self) -> int:
        return sum(rss_bytes(pid) for pid in process_tree(self.process.pid))

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)


class Meter:
    """CPU seconds of the site's server processes, PostgreSQL's backends serving the site's
    database (those alive at the end: the servers' pools keep theirs), the Redis server (with
    ``redis``: its whole process, so nothing else should use it meanwhile), the whole machine
    and what the host stole from it."""

    def __init__(self, servers: list[Server], database: str, *, redis: bool) -> None:
        self.servers, self.database, self.redis = servers, database, redis
        self.start: dict[str, Any] = {}
        self.last: dict[str, Any] = {}

    def backends(self) -> dict[int, float]:
        if not self.database.startswith("postgres"):
            return {}
        import psycopg

        with psycopg.connect(self.database, autocommit=True) as conn:
            pids = conn.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
                "AND pid <> pg_backend_pid()"
            ).fetchall()
        found = {}
        for (pid,) in pids:
            with contextlib.suppress(OSError):
                found[int(pid)] = cpu_seconds(int(pid))
        return found

    def read(self) -> dict[str, Any]:
        busy, total = machine_cpu()
        return {
            "servers": sum(s.cpu() for s in self.servers),
            "backends": self.backends(),
            "redis": redis_cpu() if self.redis else 0.0,
            "machine": busy,
            "machine_total": total,
            "stolen": stolen_cpu(),
        }

    def begin(self) -> None:
        self.start = self.read()

    def end(self) -> dict[str, float]:
        now = self.last = self.read()
        before = self.start["backends"]
        database = sum(cpu - before.get(pid, 0.0) for pid, cpu in now["backends"].items())
        used = {k: now[k] - self.start[k] for k in ("servers", "redis", "machine", "stolen")}
        return {k: round(v, 2) for k, v in {**used, "postgres": database}.items()}

    def machine_busy_share(self) -> float:
        """The share of the machine's CPU time (all cores) that was busy from ``begin`` to
        the last ``end``."""
        return (self.last["machine"] - self.start["machine"]) / (
            self.last["machine_total"] - self.start["machine_total"]
        )


def redis_cpu() -> float:
    """CPU seconds of the machine's Redis servers (their threads included)."""
    total = 0.0
    for comm in Path("/proc").glob("[0-9]*/comm"):
        with contextlib.suppress(OSError):
            if comm.read_text().strip() == "redis-server":
                total += cpu_seconds(int(comm.parent.name))
    return total


def _py_spy() -> str:
    """py-spy from the environment this runs in (a dev dependency), else from PATH."""
    beside = Path(sys.executable).parent / "py-spy"
    return str(beside) if beside.exists() else "py-spy"


@contextlib.contextmanager
def sampled(servers: list[Server], out: str | None) -> Iterator[None]:
    """With ``out``: ``py-spy record`` of each server process while the block runs, raw
    (collapsed) stacks with thread names, to ``out/<server>.txt``: only the thread holding the
    interpreter's lock (``--gil``), so that a process's samples say what kept its one
    interpreter busy, not where its threads wait."""
    if not out:
        yield
        return
    Path(out).mkdir(parents=True, exist_ok=True)
    spies = [
        subprocess.Popen(
            [
                _py_spy(),
                "record",
                "-p",
                str(s.process.pid),
                "-r",
                "100",
                "-f",
                "raw",
                "--threads",
                "--gil",
                "--nonblocking",
                "--subprocesses",
                "-o",
                str(Path(out) / f"{s.name}.txt"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for s in servers
    ]
    try:
        yield
    finally:
        for spy in spies:
            spy.send_signal(signal.SIGINT)  # py-spy writes what it has and ends
        for spy in spies:
            spy.wait(timeout=30)


def start_servers(
    stack: ExitStack,
    prefix: str,
    app: str,
    count: int,
    env: dict[str, str],
    log_dir: Path,
    kind: str = "daphne",
) -> list[Server]:
    """``count`` worker processes of the ASGI server ``kind``, stopped with ``stack``."""
    servers = []
    for i in range(count):
        server = Server.start(f"{prefix}-{i + 1}", app, env, log_dir, kind)
        stack.callback(server.stop)
        servers.append(server)
    return servers


PHASES = ("fresh idle sockets", "setup and play", "after play")


def scan_log(text: str) -> dict[str, Any]:
    """Tracebacks in (part of) a server log: how many (a chain of "during handling of the
    above" counts once), and the exception lines that ended them."""
    lines = text.splitlines()
    ends: Counter[str] = Counter()
    for i, line in enumerate(lines):
        if not line.startswith("Traceback (most recent call last)"):
            continue
        for j in range(i + 1, len(lines)):
            later = lines[j]
            if later and not later[0].isspace():
                following = next((x for x in lines[j + 1 : j + 3] if x.strip()), "")
                if not following.startswith(("The above exception", "During handling")):
                    ends[later[:160]] += 1
                break
    return {
        "tracebacks": sum(ends.values()),
        "exceptions": dict(ends.most_common(5)),
        # channels_redis logs a group send that found some members' channels full (INFO).
        "over_capacity": sum("channels over capacity" in line for line in lines),
    }


def scan_phases(path: Path, marks: Sequence[int]) -> dict[str, dict[str, Any]]:
    """``scan_log`` of each phase of a log, cut at the byte offsets ``marks`` (where the
    log stood when each phase after the first began)."""
    data = path.read_bytes()
    cuts = [0, *marks, len(data)]
    return {
        phase: scan_log(data[cuts[i] : cuts[i + 1]].decode(errors="replace"))
        for i, phase in enumerate(PHASES[: len(cuts) - 1])
    }


async def run_quiet(command: list[str], env: dict[str, str]) -> bytes:
    """Run a command to completion; its stdout. Stderr passes through (progress lines)."""
    process = await asyncio.create_subprocess_exec(
        *command, cwd=ROOT, env=env, stdout=asyncio.subprocess.PIPE
    )
    out, _ = await process.communicate()
    if process.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} exited with {process.returncode}")
    return out


# --- PostgreSQL and Redis -----------------------------------------------------------------------


def database_url(admin_url: str, name: str) -> str:
    return urlunsplit(urlsplit(admin_url)._replace(path="/" + name))


def create_database(admin_url: str, name: str) -> None:
    import psycopg

    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def drop_database(admin_url: str, name: str) -> None:
    import psycopg

    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def stored_events(database: str) -> dict[str, dict[str, int]]:
    """Per kind, how many player events the server has stored and the size of their payloads
    (a ``DATABASE_URL``: PostgreSQL, or SQLite's ``sqlite:///path?...``)."""
    if database.startswith("sqlite:"):
        import sqlite3

        with contextlib.closing(sqlite3.connect(urlsplit(database).path)) as db:
            rows = db.execute(
                "SELECT kind, COUNT(*), SUM(LENGTH(payload)) FROM lobby_playerevent GROUP BY kind"
            ).fetchall()
    else:
        import psycopg

        with psycopg.connect(database) as conn:
            rows = conn.execute(
                "SELECT kind, COUNT(*), SUM(LENGTH(payload::text)) FROM lobby_playerevent "
                "GROUP BY kind"
            ).fetchall()
    return {str(kind): {"events": int(n), "bytes": int(size or 0)} for kind, n, size in rows}


def flush_redis(url: str) -> None:
    import redis

    client = redis.Redis.from_url(url)
    try:
        client.flushdb()
    finally:
        client.close()


# --- A small HTTP/1.1 client --------------------------------------------------------------------


@dataclass
class Reply:
    status: int
    body: bytes
    headers: dict[str, str] = field(default_factory=dict)

    def json(self) -> Any:
        return json.loads(self.body) if self.body else None

    @property
    def code(self) -> str:
        """The API's error code, when the body has one."""
        with contextlib.suppress(ValueError, AttributeError):
            return str(self.json().get("code", ""))
        return ""


class Http:
    """One keep-alive connection to one server, one request at a time, as a simple API
    client holds it. A request that meets a connection the server closed while it was idle
    is sent again once on a new one (safe: every POST carries an ``Idempotency-Key``). With
    ``fresh``, a new connection for every request, closed after its answer, as a client on
    ``urllib`` makes them (``ginclient``)."""

    def __init__(
        self, port: int, token: str = "", *, fresh: bool = False, tls: ssl.SSLContext | None = None
    ) -> None:
        self.port, self.token, self.fresh, self.tls = port, token, fresh, tls
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.lock = asyncio.Lock()
        self.resent = 0

    async def call(
        self,
        method: str,
        path: str,
        payload: Any = None,
        *,
        idempotent: bool = False,
        headers: Sequence[str] = (),
    ) -> Reply:
        body = b"" if payload is None else json.dumps(payload).encode()
        head = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{self.port}"]
        if self.token:
            head.append(f"Authorization: Bearer {self.token}")
        if method != "GET":
            head += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
        if idempotent:
            head.append(f"Idempotency-Key: {uuid.uuid4()}")
        if self.fresh:
            head.append("Connection: close")
        head += headers
        request = ("\r\n".join(head) + "\r\n\r\n").encode() + body
        async with self.lock:
            try:
                async with asyncio.timeout(HTTP_TIMEOUT):
                    reply = await self._send(request)
            except BaseException:
                self.close()  # whatever the connection holds now is unknown
                raise
            if self.fresh:
                self.close()
            return reply

    async def _send(self, request: bytes) -> Reply:
        for attempt in range(2):
            reused = self.writer is not None
            if self.reader is None or self.writer is None:
                self.reader, self.writer = await asyncio.open_connection(
                    "127.0.0.1",
                    self.port,
                    ssl=self.tls,
                    server_hostname="localhost" if self.tls else None,
                )
            try:
                self.writer.write(request)
                await self.writer.drain()
                return await self._read(self.reader)
            except (ConnectionError, asyncio.IncompleteReadError):
                self.close()
                if not reused or attempt:
                    raise
                self.resent += 1
        raise AssertionError("unreachable")

    async def _read(self, reader: asyncio.StreamReader) -> Reply:
        lines = (await reader.readuntil(b"\r\n\r\n")).decode("latin1").split("\r\n")
        status = int(lines[0].split()[1])
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        if "content-length" in headers:
            body = await reader.readexactly(int(headers["content-length"]))
        elif headers.get("transfer-encoding", "").lower() == "chunked":
            body = await self._chunks(reader)
        else:
            body = await reader.read()
            self.close()
        if headers.get("connection", "").lower() == "close":
            self.close()
        return Reply(status, body, headers)

    @staticmethod
    async def _chunks(reader: asyncio.StreamReader) -> bytes:
        parts = []
        while size := int((await reader.readline()).split(b";")[0], 16):
            parts.append(await reader.readexactly(size))
            await reader.readexactly(2)
        while (await reader.readline()) not in (b"\r\n", b""):
            pass  # trailers
        return b"".join(parts)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


def _why(error: BaseException) -> str:
    """An error's name, and for a socket the server closed, the code it closed with."""
    received = getattr(error, "rcvd", None)
    return type(error).__name__ + (f" {received.code}" if received is not None else "")


async def open_socket(url: str, tls: ssl.SSLContext | None = None) -> ClientConnection:
    return await connect(url, max_size=None, compression=None, open_timeout=HTTP_TIMEOUT, ssl=tls)


async def close_sockets(sockets: list[ClientConnection]) -> None:
    """Close sockets a few at a time. (All at once, a hundred closes make a hundred
    concurrent ``group_discard`` calls, more than channels_redis's pool of 100 connections:
    the server logs MaxConnectionsError, which would be the teardown's doing, not the run's.)"""
    await limited([lambda ws=ws: ws.close() for ws in sockets], CONNECT_CONCURRENCY)


# --- The floor: a bare Channels relay -----------------------------------------------------------


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


# --- The site: players, matches, moves ----------------------------------------------------------


@dataclass(eq=False)
class Player:
    username: str
    token: str
    port: int
    http: Http
    ws: ClientConnection | None = None
    listener: asyncio.Task[None] | None = None
    views: dict[str, dict[str, Any]] = field(default_factory=dict)
    versions: dict[str, Counter[int]] = field(default_factory=dict)
    challenges: dict[int, asyncio.Future[None]] = field(default_factory=dict)
    frames: Counter[str] = field(default_factory=Counter)
    frame_bytes: Counter[str] = field(default_factory=Counter)
    next_seq: int | None = None
    seq_gaps: int = 0
    seq_repeats: int = 0
    last_frame_at: float | None = None
    longest_silence: float = 0.0
    # A match event whose version is lower than one this socket already delivered.
    versions_backwards: int = 0
    # Moves sent over the event socket, waiting for their answer frames, by the frame's id.
    answers: dict[str, asyncio.Future[dict[str, Any]]] = field(default_factory=dict)

    def challenge_seen(self, challenge_id: int) -> asyncio.Future[None]:
        if challenge_id not in self.challenges:
            self.challenges[challenge_id] = asyncio.get_running_loop().create_future()
        return self.challenges[challenge_id]

    def remember(self, match_id: str, view: dict[str, Any]) -> None:
        known = self.views.get(match_id)
        if known is None or view["version"] >= known["version"]:
            self.views[match_id] = view


@dataclass(eq=False)
class Match:
    id: str
    players: tuple[Player, Player]
    version: int = 0  # the newest version anyone has been told of
    in_flight: bool = False
    done: bool = False
    moves: int = 0


def choose(view: dict[str, Any]) -> dict[str, Any]:
    """A simple legal move: go out when possible, pass the upcard, draw from the stock, and
    discard the card that leaves the least deadwood."""
    legal: list[dict[str, Any]] = view["legal_actions"]
    after = view.get("deadwood_after_discard") or {}
    for kind in ("big_gin", "gin", "knock", "pass", "draw", "discard", "next_hand"):
        options = [a for a in legal if a["type"] == kind and a.get("from", "stock") == "stock"]
        if options:
            return min(options, key=lambda a: after.get(a.get("card", ""), 0))
    return legal[0]


@dataclass(frozen=True)
class Client:
    """How the players' program behaves: when they move (``moments``), whether each request
    opens a connection of its own (``fresh``, as ``ginclient`` on ``urllib`` does) or reuses
    one (``keep``), and whether they read the match (``GET /matches/{id}``) before each move,
    as ``ginclient``'s bot does after an event, or choose from the event's view (``view``).
    The defaults are the most demanding of each."""

    pace: str = "random"
    connections: str = "fresh"
    reads: str = "get"
    # Moves as HTTP POSTs, or as ``act`` frames over the already open event socket.
    moves: str = "http"

    def __str__(self) -> str:
        told = f"pace {self.pace}, {self.connections} connections, reads {self.reads}"
        return told + (", moves over the event socket" if self.moves == "socket" else "")


class Site:
    """The benchmark's clients of one running site."""

    def __init__(
        self,
        servers: list[Server],
        credentials: list[tuple[str, str]],
        client: Client,
        front: Front | None = None,
    ) -> None:
        self.servers, self.client = servers, client
        # Through nginx (``--via-proxy``) every player connects to it, over TLS.
        self.tls = front.tls if front else None
        fresh = client.connections == "fresh"
        self.players = [
            Player(name, token, port, Http(port, token, fresh=fresh, tls=self.tls))
            for i, (name, token) in enumerate(credentials)
            for port in [front.port if front else servers[i % len(servers)].port]
        ]
        self.matches: dict[str, Match] = {}
        self.errors: Counter[str] = Counter()
        self.skipped: Counter[str] = Counter()
        self.post_rtt: list[float] = []
        self.get_rtt: list[float] = []
        self.push: list[float] = []
        self.push_spans: list[tuple[float, float]] = []  # (sent, heard), for --timeline
        self.pending: dict[tuple[str, int, str], float] = {}
        self.last_frame_at = time.perf_counter()
        self.closing = False

    # Event sockets.

    def socket_url(self, player: Player) -> str:
        where = f"wss://localhost:{player.port}" if self.tls else f"ws://127.0.0.1:{player.port}"
        return f"{where}/ws/events/?token={player.token}"

    async def connect_all(self) -> None:
        async def join(player: Player) -> None:
            # Connected means the hello has come: the stream has put the player in the lobby
            # and counts its events from here (without ``since``, earlier ones are not sent).
            try:
                player.ws = await open_socket(self.socket_url(player), self.tls)
                async with asyncio.timeout(HTTP_TIMEOUT):
                    hello = await player.ws.recv()
                self.on_frame(player, str(hello))
            except (OSError, TimeoutError, ConnectionClosed) as error:
                self.errors[f"event socket not opened: {_why(error)}"] += 1
                return
            player.listener = asyncio.create_task(self.listen(player, player.ws))

        # One at a time, as players arrive in a lobby: each one's arrival is announced to all
        # who are already there. (Arrivals racing each other would announce them before the
        # newcomers' streams start counting, and hide part of the fan-out.)
        progress = Progress("connected event sockets", len(self.players))
        await limited([lambda p=p: join(p) for p in self.players], 1, progress)

    async def listen(self, player: Player, ws: ClientConnection) -> None:
        """Read the player's events; when the server closes the socket, count it and open
        it again with ``since`` set to the last event read, as a client should."""
        while True:
            with contextlib.suppress(ConnectionClosed):
                async for frame in ws:
                    text = frame if isinstance(frame, str) else frame.decode()
                    try:
                        self.on_frame(player, text)
                    except (ValueError, KeyError, TypeError):
                        self.errors["unreadable event frame"] += 1
            if self.closing:
                return
            self.errors[f"event socket closed by the server ({ws.close_code})"] += 1
            since = (player.next_seq or 1) - 1
            try:
                url = f"{self.socket_url(player)}&since={since}"
                ws = player.ws = await open_socket(url, self.tls)
            except (OSError, TimeoutError) as error:
                self.errors[f"event socket not reopened: {type(error).__name__}"] += 1
                return
            if self.closing:
                await ws.close()
                return

    def on_frame(self, player: Player, text: str) -> None:
        now = self.last_frame_at = time.perf_counter()
        if player.last_frame_at is not None:
            player.longest_silence = max(player.longest_silence, now - player.last_frame_at)
        player.last_frame_at = now
        message = json.loads(text)
        kind = str(message.get("type"))
        player.frames[kind] += 1
        player.frame_bytes[kind] += len(text.encode())
        if kind == "hello":
            if player.next_seq is None:
                player.next_seq = int(message["last_seq"]) + 1
            return
        if kind == "answer":
            waiting = player.answers.pop(str(message.get("id")), None)
            if waiting is not None and not waiting.done():
                waiting.set_result(message)
            return
        seq = message.get("seq")
        if isinstance(seq, int) and player.next_seq is not None:
            if seq >= player.next_seq:
                player.seq_gaps += seq - player.next_seq
                player.next_seq = seq + 1
            else:
                player.seq_repeats += 1
        data = message.get("data") or {}
        if kind == "challenge" and data.get("direction") == "incoming":
            future = player.challenge_seen(int(data["id"]))
            if not future.done():
                future.set_result(None)
        elif kind == "match":
            match_id, version = str(data["match"]), int(data["version"])
            heard = player.versions.setdefault(match_id, Counter())
            if heard and version < max(heard):
                player.versions_backwards += 1
            heard[version] += 1
            started = self.pending.pop((match_id, version, player.username), None)
            if started is not None:
                self.push.append(now - started)
                self.push_spans.append((started, now))
            match = self.matches.get(match_id)
            if match is not None:
                match.version = max(match.version, version)
            if data.get("view"):
                player.remember(match_id, data["view"])

    async def quiet(self, gap: float, longest: float) -> float:
        """Wait until no frame has arrived for ``gap`` seconds (at most ``longest``)."""
        start = time.perf_counter()
        while time.perf_counter() - start < longest:
            if time.perf_counter() - self.last_frame_at >= gap:
                break
            await asyncio.sleep(0.1)
        return time.perf_counter() - start

    # Pairing through the public API.

    async def pair_all(self) -> None:
        pairs = [(self.players[i], self.players[i + 1]) for i in range(0, len(self.players), 2)]
        progress = Progress("paired matches", len(pairs))
        await limited(
            [lambda a=a, b=b: self.pair(a, b) for a, b in pairs], PAIR_CONCURRENCY, progress
        )

    async def pair(self, a: Player, b: Player) -> None:
        """``a`` challenges ``b``; ``b`` sees it on its event socket and accepts; both read
        the match. Up to three tries."""
        for _attempt in range(3):
            reply = await self.call(a, "POST /challenges", "/api/v1/challenges", {"to": b.username})
            if reply is None or reply.status != 201:
                await asyncio.sleep(1)
                continue
            challenge_id = int(reply.json()["id"])
            try:
                async with asyncio.timeout(HTTP_TIMEOUT):
                    await b.challenge_seen(challenge_id)
            except TimeoutError:
                self.errors["challenge event not received within 30 s"] += 1
            reply = await self.call(
                b, "POST /challenges/{id}/accept", f"/api/v1/challenges/{challenge_id}/accept", {}
            )
            if reply is None or reply.status != 201:
                await asyncio.sleep(1)
                continue
            match = Match(str(reply.json()["match"]), (a, b))
            self.matches[match.id] = match
            for player in (a, b):
                reply = await self.call(player, "GET /matches/{id}", f"/api/v1/matches/{match.id}")
                if reply is not None and reply.status == 200:
                    view = reply.json()["view"]
                    player.remember(match.id, view)
                    await self.seed_at_once(match, player, view)
            return

    async def call(
        self, player: Player, label: str, path: str, payload: Any = None
    ) -> Reply | None:
        """A request counted in the errors (under ``label``, "METHOD /route") when it fails
        or is refused; None when no answer came."""
        method = label.split()[0]
        try:
            reply = await player.http.call(method, path, payload, idempotent=method == "POST")
        except TimeoutError:
            self.errors[f"{label}: timeout"] += 1
            return None
        except (OSError, asyncio.IncompleteReadError) as error:
            self.errors[f"{label}: {type(error).__name__}"] += 1
            return None
        if not 200 <= reply.status < 300:
            self.errors[f"{label}: {reply.status} {reply.code}"] += 1
        return reply

    # Paced play.

    def mover(self, match: Match) -> tuple[Player, dict[str, Any]] | None:
        """Whoever may act on the newest version, going by what they have been told."""
        for player in match.players:
            view = player.views.get(match.id)
            if view is None or view["version"] != match.version:
                continue
            if view["phase"] == "match_over":
                match.done = True
                return None
            if view["legal_actions"]:
                return player, view
        return None

    async def move(self, match: Match, player: Player, view: dict[str, Any]) -> None:
        match.in_flight = True
        try:
            if self.client.reads == "get":
                read = await self.read(match, player)
                if read is None or not read["legal_actions"]:
                    return  # moved on meanwhile (the opponent resigned, the time ran out)
                view = read
            await self.post_move(match, player, view)
        finally:
            match.in_flight = False

    async def read(self, match: Match, player: Player) -> dict[str, Any] | None:
        """The player's view of the match, read (``GET /matches/{id}``) and remembered."""
        started = time.perf_counter()
        reply = await self.call(player, "GET /matches/{id}", f"/api/v1/matches/{match.id}")
        if reply is None or reply.status != 200:
            return None
        self.get_rtt.append(time.perf_counter() - started)
        view: dict[str, Any] = reply.json()["view"]
        player.remember(match.id, view)
        return view

    async def post_move(self, match: Match, player: Player, view: dict[str, Any]) -> None:
        opponent = match.players[1] if player is match.players[0] else match.players[0]
        version = int(view["version"])
        waiting = (match.id, version + 1, opponent.username)
        started = self.pending[waiting] = time.perf_counter()
        status, body = await self.send_move(match, player, choose(view), version)
        if status != 200:
            self.pending.pop(waiting, None)
            if status == 409:
                await self.read(match, player)
            return
        self.post_rtt.append(time.perf_counter() - started)
        match.moves += 1
        player.remember(match.id, body["view"])
        match.version = max(match.version, int(body["version"]))
        if body["status"] != "active":
            match.done = True

    async def send_move(
        self, match: Match, player: Player, action: dict[str, Any], version: int
    ) -> tuple[int, Any]:
        """``action`` on ``version`` through the client's door: its answer's status and body
        (0 when none came)."""
        payload = {"action": action, "version": version}
        if self.client.moves == "socket":
            return await self.act(match, player, payload)
        reply = await self.call(
            player, "POST /matches/{id}/actions", f"/api/v1/matches/{match.id}/actions", payload
        )
        return (0, None) if reply is None else (reply.status, reply.json())

    async def seed_at_once(self, match: Match, player: Player, view: dict[str, Any]) -> None:
        """The player's seed for a deal that waits for it, sent as soon as the player reads
        the match, as a client does (``ginclient``'s bot, the table page): a seed left for the
        paced moves would come after the server dealt without it, 10 s on, and be refused as
        too late. Not counted as a move of play."""
        if not only_seed(view["legal_actions"]):
            return
        status, body = await self.send_move(match, player, {"type": "seed"}, int(view["version"]))
        if status == 200:
            player.remember(match.id, body["view"])
            match.version = max(match.version, int(body["version"]))

    async def act(self, match: Match, player: Player, payload: dict[str, Any]) -> tuple[int, Any]:
        """The move as an ``act`` frame over the player's event socket, with an idempotency key
        as every POST of ours carries: its answer's status and body (0 when none came)."""
        label = "act over the event socket"
        ident = uuid.uuid4().hex
        answered = player.answers[ident] = asyncio.get_running_loop().create_future()
        command = {"type": "act", "id": ident, "match": match.id, **payload}
        command["idempotency_key"] = ident
        if player.ws is None:
            self.errors[f"{label}: no socket"] += 1
            return 0, None
        try:
            await player.ws.send(json.dumps(command))
            async with asyncio.timeout(HTTP_TIMEOUT):
                answer = await answered
        except (TimeoutError, ConnectionClosed) as error:
            self.errors[f"{label}: {type(error).__name__}"] += 1
            return 0, None
        finally:
            player.answers.pop(ident, None)
        status, body = int(answer["status"]), answer["body"]
        if status != 200:
            self.errors[f"{label}: {status} {body.get('code', '')}"] += 1
        return status, body

    async def play(self, seconds: float) -> None:
        matches = list(self.matches.values())
        moves: set[asyncio.Task[None]] = set()
        start = time.perf_counter() + 0.5
        end = start + seconds

        async def pace(i: int, match: Match) -> None:
            for moment in moments(i, len(matches), start, end, self.client.pace):
                if match.done:
                    return
                await sleep_until(moment)
                if match.in_flight:
                    self.skipped["previous move still in flight"] += 1
                    continue
                chosen = self.mover(match)
                if chosen is None:
                    if not match.done:
                        self.skipped["mover not yet told of the last move"] += 1
                    continue
                task = asyncio.create_task(self.move(match, *chosen))
                moves.add(task)
                task.add_done_callback(moves.discard)

        async def report() -> None:
            while True:
                await asyncio.sleep(5)
                left = max(0.0, end - time.perf_counter())
                errors = sum(self.errors.values())
                say(f"  playing: {left:4.0f} s left, {len(self.post_rtt)} moves, {errors} errors")

        reporter = asyncio.create_task(report())
        try:
            await asyncio.gather(*(pace(i, m) for i, m in enumerate(matches)))
            if moves:
                await asyncio.gather(*list(moves))
            # Every player, mover or not, should hear of every version; give the last ones time.
            deadline = time.perf_counter() + PUSH_GRACE
            while self.pending or self.integrity()["versions_missing"]:
                if time.perf_counter() > deadline:
                    break
                await asyncio.sleep(0.05)
        finally:
            reporter.cancel()
        if self.pending:
            self.errors[f"push not received within {PUSH_GRACE:.0f} s"] += len(self.pending)
            self.pending.clear()

    def integrity(self) -> dict[str, int]:
        """Events lost or repeated: gaps and repeats in each player's numbering, and the match
        versions each player should have heard of but did not, or heard of twice. A player
        should hear of every version either player heard of, and of the last one. (Not of every
        number from 0: the server deals a hand whose players sent no seed in time with both
        seeds at once, two versions in one announcement.)"""
        missing = repeated = 0
        for match in self.matches.values():
            heard = [player.versions.get(match.id, Counter()) for player in match.players]
            announced = {match.version, *heard[0], *heard[1]}
            for seen in heard:
                missing += sum(1 for v in announced if v not in seen)
                repeated += sum(count - 1 for count in seen.values())
        now = time.perf_counter()
        silences = [
            max(p.longest_silence, now - p.last_frame_at)
            for p in self.players
            if p.last_frame_at is not None
        ]
        return {
            "seq_gaps": sum(p.seq_gaps for p in self.players),
            "seq_repeats": sum(p.seq_repeats for p in self.players),
            "versions_missing": missing,
            "versions_repeated": repeated,
            "versions_backwards": sum(p.versions_backwards for p in self.players),
            "longest_silence_s": round(max(silences, default=0.0), 1),
            "silent_sockets": sum(1 for s in silences if s > SILENT_AFTER),
        }

    async def idle_socket_rss(self, count: int, players: list[Player]) -> float:
        """How much the servers' RSS grows per idle event socket: ``count`` more sockets of
        ``players`` (round robin, each on its own server), who are online already so that
        nothing changes in the lobby. Bytes per socket."""
        before = sum(s.rss() for s in self.servers)
        sockets: list[ClientConnection] = []

        async def open_one(player: Player) -> None:
            try:
                ws = await open_socket(self.socket_url(player), self.tls)
                sockets.append(ws)
                async with asyncio.timeout(HTTP_TIMEOUT):
                    await ws.recv()  # the hello: the stream is up
            except (OSError, TimeoutError, ConnectionClosed) as error:
                self.errors[f"idle socket: {_why(error)}"] += 1

        progress = Progress("opened idle sockets", count)
        chosen = [players[i % len(players)] for i in range(count)]
        await limited([lambda p=p: open_one(p) for p in chosen], CONNECT_CONCURRENCY, progress)
        await asyncio.sleep(2)
        after = sum(s.rss() for s in self.servers)
        await close_sockets(sockets)
        return (after - before) / max(1, len(sockets))

    async def fresh_idle_socket_rss(self, count: int) -> float:
        """The same on servers nobody has used yet (their heaps hold no memory freed by
        earlier work for new sockets to reuse): one player per server first opens a socket
        that warms the code paths and brings them online, then ``count`` idle ones. All are
        closed again before the lobby fills up. Each player opens at most
        ``IDLE_SOCKETS_PER_PLAYER`` of them: every socket opened counts against its player's
        API budget (300 a minute), and a player past it is refused (4429) for the rest of
        the minute, its own socket and its challenge included."""
        owners = max(len(self.servers), math.ceil(count / IDLE_SOCKETS_PER_PLAYER))
        firsts = self.players[:owners]
        warm = [await open_socket(self.socket_url(p), self.tls) for p in firsts]
        for ws in warm:
            await ws.recv()
        try:
            return await self.idle_socket_rss(count, firsts)
        finally:
            await close_sockets(warm)

    async def close(self) -> None:
        self.closing = True
        await close_sockets([p.ws for p in self.players if p.ws is not None])
        await asyncio.gather(*(p.listener for p in self.players if p.listener is not None))
        for player in self.players:
            player.http.close()


# --- One configuration --------------------------------------------------------------------------


@dataclass(frozen=True)
class Config:
    name: str
    title: str
    workers: int
    distributed: bool
    # Each worker's database pool (and so its HTTP lanes), when the default's 20 per worker
    # would go over PostgreSQL's max_connections (100).
    pool_max: int | None = None

    def title_under(self, server: str) -> str:
        """The title, naming the ASGI server the run uses."""
        return self.title.replace("daphne", server)


CONFIGS = {
    c.name: c
    for c in (
        Config("embedded", "SQLite file, in-memory channel layer, 1 daphne", 1, False),
        Config("pg1", "PostgreSQL + Redis, 1 daphne worker", 1, True),
        Config("pg2", "PostgreSQL + Redis, 2 daphne workers", 2, True),
        Config("pg4", "PostgreSQL + Redis, 4 daphne workers", 4, True),
        Config("pg8", "PostgreSQL + Redis, 8 daphne workers (pools of 10)", 8, True, 10),
    )
}


async def site_database(
    stack: ExitStack, config: Config, args: argparse.Namespace, label: str, tag: str = ""
) -> tuple[dict[str, str], Path]:
    """The environment of a fresh, migrated site database for ``config`` (PostgreSQL, dropped
    when ``stack`` closes, with a flushed Redis; or SQLite in a temporary directory), and that
    directory, where the servers' logs go too."""
    prefix = label.replace("_", "-") + "-"
    log_dir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix=prefix)))
    env = base_env()
    if config.distributed:
        name = f"{label}_{os.getpid()}_{config.name}"
        say(f"{tag} creating database {name}, flushing Redis {args.redis}".lstrip())
        create_database(args.postgres, name)
        stack.callback(drop_database, args.postgres, name)
        flush_redis(args.redis)
        env.update(DATABASE_URL=database_url(args.postgres, name), REDIS_URL=args.redis)
        if config.pool_max is not None:
            env["DB_POOL_MAX"] = str(config.pool_max)
    else:
        env["DATABASE_URL"] = f"sqlite:///{log_dir}/db.sqlite3?{SQLITE_OPTIONS}"
        # As the site's own SQLite settings keep them (DATABASE_URL alone would not).
        env.setdefault("CONN_MAX_AGE", "60")
    say(f"{tag} migrating".lstrip())
    await run_quiet([sys.executable, "manage.py", "migrate", "-v0"], env)
    return env, log_dir


def base_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(
        DJANGO_SETTINGS_MODULE="ginsite.settings",
        DEBUG="0",
        SECRET_KEY="bench-live-" + secrets.token_hex(24),
        ALLOWED_HOSTS="127.0.0.1,localhost",
        PYTHONUNBUFFERED="1",
    )
    return env


def per_player(values: list[int]) -> dict[str, float]:
    return {
        "mean": round(statistics.fmean(values), 1) if values else 0.0,
        "max": max(values, default=0),
        "total": sum(values),
    }


async def run_config(
    config: Config, args: argparse.Namespace, *, via_proxy: bool = False
) -> dict[str, Any]:
    tag = f"[{config.name}{' via nginx' if via_proxy else ''}]"
    n = args.matches
    result: dict[str, Any] = {
        "config": config.name + ("+nginx" if via_proxy else ""),
        "title": config.title_under(args.server) + (", behind nginx (TLS)" if via_proxy else ""),
        "server": args.server,
        "matches": n,
        "players": 2 * n,
        "seconds": args.seconds,
        "workers": config.workers,
        "client": asdict(args.client),
        "conn_max_age": os.environ.get("CONN_MAX_AGE", "0") if config.distributed else None,
    }
    with ExitStack() as stack:
        env, log_dir = await site_database(stack, config, args, "bench_live", tag)

        say(f"{tag} creating {2 * n} players with API tokens")
        begun = time.perf_counter()
        out = await run_quiet([sys.executable, "-m", "bench.live_players", str(2 * n), "p"], env)
        credentials = [(str(u), str(t)) for u, t in json.loads(out)]
        setup = {"players": time.perf_counter() - begun}

        say(f"{tag} relay floor on {config.workers} {args.server} worker(s)")
        with ExitStack() as relay_stack:
            relays = start_servers(
                relay_stack,
                "relay",
                "bench.live_relay:application",
                config.workers,
                env,
                log_dir,
                args.server,
            )
            await asyncio.gather(*(s.wait_ready("/") for s in relays))
            relay = await run_relay(relays, n, args.seconds, args.client.pace)
        result["relay_ms"] = asdict(relay.latency)
        result["relay_errors"] = relay.errors
        result["relay_cpu_seconds"] = relay.cpu_seconds

        say(f"{tag} starting the site on {config.workers} {args.server} worker(s)")
        site_env = dict(env)
        if args.timeline:
            (log_dir / "timeline").mkdir()
            site_env["GIN_TIMELINE"] = str(log_dir / "timeline")
        servers = start_servers(
            stack,
            "site",
            "ginsite.asgi:application",
            config.workers,
            site_env,
            log_dir,
            args.server,
        )
        await asyncio.gather(*(s.wait_ready("/api/v1/me") for s in servers))
        front = None
        if via_proxy:
            say(f"{tag} starting nginx in front of them (deploy/nginx.conf, TLS)")
            front = stack.enter_context(nginx_in_front([s.port for s in servers]))
        site = Site(servers, credentials, args.client, front)
        try:
            idle = max(IDLE_SOCKETS_MIN, 2 * n)
            result["idle_sockets"] = idle
            say(f"{tag} opening {idle} idle event sockets: RSS per socket on fresh servers")
            rss = await site.fresh_idle_socket_rss(idle)
            result["rss_per_idle_socket_kb"] = {"fresh": round(rss / 1024, 1)}
            cpu_start = {s.name: s.cpu() for s in servers}
            marks = {s.name: [s.log.stat().st_size] for s in servers}
            begun = time.perf_counter()
            await site.connect_all()
            setup["sockets"] = time.perf_counter() - begun
            begun = time.perf_counter()
            await site.pair_all()
            setup["pairing"] = time.perf_counter() - begun
            setup["settle"] = await site.quiet(1.0, 15.0)
            result["setup_seconds"] = {k: round(v, 1) for k, v in setup.items()}
            result["paired"] = len(site.matches)
            presence_events = [p.frames["presence"] for p in site.players]
            presence_bytes = [p.frame_bytes["presence"] for p in site.players]
            result["presence_setup"] = {
                "events": per_player(presence_events),
                "bytes": per_player(presence_bytes),
            }
            cpu_setup = {s.name: s.cpu() for s in servers}
            stored_setup = stored_events(env["DATABASE_URL"])
            result["stored_setup"] = stored_setup

            say(f"{tag} playing {len(site.matches)} matches for {args.seconds:.0f} s")
            meter = Meter(servers, env["DATABASE_URL"], redis=config.distributed)
            meter.begin()
            nginx_cpu = nginx_seconds(front)
            client_cpu = time.process_time()
            begun = time.perf_counter()
            with sampled(servers, args.py_spy and str(Path(args.py_spy) / config.name)):
                await site.play(args.seconds)
            wall = time.perf_counter() - begun
            played = (begun, begun + wall)
            client_cpu = time.process_time() - client_cpu
            parts = meter.end()
            if front is not None:
                parts["nginx"] = nginx_seconds(front) - nginx_cpu
            cpu_play = {s.name: s.cpu() for s in servers}
            result["stored_play"] = {
                kind: {k: v - stored_setup.get(kind, {}).get(k, 0) for k, v in counts.items()}
                for kind, counts in stored_events(env["DATABASE_URL"]).items()
            }
            moves = len(site.post_rtt)
            play_cpu = {k: round(cpu_play[k] - cpu_setup[k], 2) for k in cpu_play}
            result.update(
                moves=moves,
                matches_finished=sum(1 for m in site.matches.values() if m.done),
                post_ms=asdict(summarize(site.post_rtt)),
                get_ms=asdict(summarize(site.get_rtt)),
                push_ms=asdict(summarize(site.push)),
                skipped_ticks=dict(site.skipped),
                events=site.integrity(),
                cpu_seconds={
                    "setup": {k: round(cpu_setup[k] - cpu_start[k], 2) for k in cpu_setup},
                    "play": play_cpu,
                    "play_ms_per_move": round(sum(play_cpu.values()) / max(1, moves) * 1000, 2),
                    "client_play": round(client_cpu, 2),
                    # Per move, in ms: each part of the machine (docs/scaling.md).
                    "parts_ms_per_move": {
                        k: round(1000 * v / max(1, moves), 2)
                        for k, v in {**parts, "client": client_cpu}.items()
                    },
                    "client_share_of_a_core": round(client_cpu / wall, 2),
                    "machine_busy_share": round(meter.machine_busy_share(), 2),
                    "machine_cores": os.cpu_count(),
                    "load_average_after_play": round(os.getloadavg()[0], 1),
                },
                presence_play={
                    "events": sum(p.frames["presence"] for p in site.players)
                    - sum(presence_events),
                    "bytes": sum(p.frame_bytes["presence"] for p in site.players)
                    - sum(presence_bytes),
                },
            )
            for server in servers:
                marks[server.name].append(server.log.stat().st_size)
            errors_until_played = Counter(site.errors)
            say(f"{tag} opening {idle} more idle event sockets: RSS per socket after the run")
            rss = await site.idle_socket_rss(idle, site.players)
            result["rss_per_idle_socket_kb"]["after_run"] = round(rss / 1024, 1)
        finally:
            await site.close()
        result["errors"] = dict(errors_until_played)
        result["errors_after_play"] = dict(site.errors - errors_until_played)
        result["http_resent"] = sum(p.http.resent for p in site.players)
        say(f"{tag} stopping the servers")
        for server in servers:
            server.stop()
        result["server_log"] = {s.name: scan_phases(s.log, marks[s.name]) for s in servers}
        if args.timeline:
            from bench import timeline  # it reads this module's summaries

            pids = {s.process.pid: s.name for s in servers}
            result["timeline"] = timeline.report(
                log_dir / "timeline", pids, site.push_spans, played
            )
        result["relay_log"] = {s.name: scan_phases(s.log, [])[PHASES[0]] for s in relays}
        if args.keep_logs:
            for server in [*servers, *relays]:
                target = Path(args.keep_logs) / f"{config.name}-{server.log.name}"
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(server.log.read_bytes())
    return result


# --- Report -------------------------------------------------------------------------------------


def latency_row(label: str, summary: dict[str, Any]) -> str:
    cells = [summary.get(k) for k in ("p50", "p95", "p99", "max")]
    shown = "".join(f"{c:9.1f}" if c is not None else f"{'-':>9}" for c in cells)
    return f"  {label:28} {summary.get('n', 0):7d}{shown}"


def stored(kinds: dict[str, dict[str, int]]) -> str:
    shown = [
        f"{kind} {c['events']} ({c['bytes'] / 1024:.0f} KB)"
        for kind, c in sorted(kinds.items())
        if c["events"]
    ]
    return ", ".join(shown) or "none"


def render(r: dict[str, Any]) -> str:
    if "moves" not in r:
        return f"== {r['config']}: did not finish"
    cpu = r["cpu_seconds"]
    presence = r["presence_setup"]
    rss = r["rss_per_idle_socket_kb"]
    events = r["events"]
    errors = r["errors"] or {}
    setup = ", ".join(f"{k} {v} s" for k, v in r["setup_seconds"].items())
    lines = [
        f"== {r['config']}: {r['title']} - {r['paired']}/{r['matches']} matches, "
        f"{r['players']} players, {r['seconds']:.0f} s of play ==",
        f"  clients: {Client(**r['client'])}",
        f"  setup: {setup}",
        f"  {'latency (ms)':28} {'n':>7}{'p50':>9}{'p95':>9}{'p99':>9}{'max':>9}",
        latency_row("relay frame A -> B (floor)", r["relay_ms"]),
        latency_row("GET /matches/{id} round trip", r["get_ms"]),
        latency_row(
            "act frame -> answer"
            if r["client"]["moves"] == "socket"
            else "POST /actions round trip",
            r["post_ms"],
        ),
        latency_row("move -> opponent's push", r["push_ms"]),
        f"  moves: {r['moves']}, matches finished: {r['matches_finished']}; "
        f"ticks skipped: {r['skipped_ticks'] or 0}",
        f"  errors: {sum(errors.values())} {errors or ''}; relay errors: {r['relay_errors'] or 0}; "
        f"HTTP requests re-sent on a closed keep-alive: {r['http_resent']}",
        f"  events: seq gaps {events['seq_gaps']}, seq repeats {events['seq_repeats']}; "
        f"match versions missing {events['versions_missing']}, "
        f"repeated {events['versions_repeated']}, backwards {events['versions_backwards']}; "
        f"longest silence on an event socket "
        f"{events['longest_silence_s']} s, sockets silent over {SILENT_AFTER:.0f} s: "
        f"{events['silent_sockets']}",
        f"  presence during setup, per player: {presence['events']['mean']:.0f} events "
        f"(max {presence['events']['max']}), {presence['bytes']['mean'] / 1024:.0f} KB "
        f"(max {presence['bytes']['max'] / 1024:.0f} KB); all players: "
        f"{presence['events']['total']} events, {presence['bytes']['total'] / 2**20:.1f} MB",
        f"  presence during play: {r['presence_play']['events']} events, "
        f"{r['presence_play']['bytes'] / 1024:.0f} KB",
        f"  events the server stored: setup {stored(r['stored_setup'])}; "
        f"play {stored(r['stored_play'])}",
        f"  server CPU s: setup {cpu['setup']}, play {cpu['play']} "
        f"= {cpu['play_ms_per_move']} ms per move; relay {r['relay_cpu_seconds']}",
        "  CPU per move by part (ms): "
        + ", ".join(f"{k} {v}" for k, v in cpu["parts_ms_per_move"].items()),
        f"  client CPU during play: {cpu['client_play']} s "
        f"({cpu['client_share_of_a_core']:.0%} of a core); the machine's {cpu['machine_cores']} "
        f"cores were {cpu['machine_busy_share']:.0%} busy (everything on it), load average "
        f"{cpu['load_average_after_play']}",
        f"  RSS per idle event socket ({r['idle_sockets']} sockets): "
        f"{rss['fresh']} KB on fresh servers, {rss['after_run']} KB after the run",
        f"  errors after play (idle sockets, closing): {r['errors_after_play'] or 0}",
    ]
    for phase in PHASES:
        counts = {k: v[phase]["tracebacks"] for k, v in r["server_log"].items()}
        full = {k: v[phase]["over_capacity"] for k, v in r["server_log"].items()}
        lines.append(f"  server log tracebacks, {phase}: {counts}; channels over capacity: {full}")
        for server, scans in r["server_log"].items():
            for line, count in scans[phase]["exceptions"].items():
                lines.append(f"    {server}: {count} x {line}")
    relay = {k: v["tracebacks"] for k, v in r["relay_log"].items()}
    lines.append(f"  relay log tracebacks: {relay}")
    if "proxy_cost" in r:
        cost = r["proxy_cost"]
        lines.append(
            "  nginx's cost against the run without it: "
            + ", ".join(f"{k} {v}" for k, v in cost.items())
        )
    if "timeline" in r:
        from bench import timeline

        lines += timeline.render(r["timeline"])
    return "\n".join(lines)


# --- Entry point --------------------------------------------------------------------------------


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=50, help="lobby matches (2N players)")
    parser.add_argument("--seconds", type=float, default=30.0, help="seconds of paced play")
    parser.add_argument(
        "--configs",
        default="embedded,pg1,pg2",
        help="comma-separated: embedded, pg1, pg2, pg4, pg8",
    )
    parser.add_argument("--quick", action="store_true", help="smoke run: 4 matches, 8 s, all")
    parser.add_argument("--json", action="store_true", help="also print a JSON summary")
    parser.add_argument(
        "--postgres",
        default="postgres://postgres@127.0.0.1:5432/postgres",
        help="a PostgreSQL URL allowed to create databases (bench_live_<pid>_<config>)",
    )
    parser.add_argument(
        "--redis", default="redis://127.0.0.1:6379/9", help="a Redis database to flush and use"
    )
    parser.add_argument("--keep-logs", metavar="DIR", help="copy the server logs here")
    parser.add_argument(
        "--server", default="daphne", choices=SERVERS, help="the ASGI server (default daphne)"
    )
    parser.add_argument(
        "--py-spy", metavar="DIR", help="sample the servers during play (py-spy, raw stacks)"
    )
    parser.add_argument(
        "--timeline",
        action="store_true",
        help="each server notes its loop's lag, collections, sweeps and waits "
        "(ginsite/lib/timeline.py); the report says which overlapped the slowest pushes",
    )
    parser.add_argument(
        "--via-proxy",
        action="store_true",
        help="run each config twice, without and with nginx in front (deploy/nginx.conf, TLS)",
    )
    defaults = Client()
    parser.add_argument(
        "--pace", choices=("random", "even"), default=defaults.pace, help=moments.__doc__
    )
    parser.add_argument("--connections", choices=("fresh", "keep"), default=defaults.connections)
    parser.add_argument("--reads", choices=("get", "view"), default=defaults.reads)
    parser.add_argument(
        "--moves",
        choices=("http", "socket"),
        default=defaults.moves,
        help="POST each move, or send it over the open event socket (docs/api.md)",
    )
    args = parser.parse_args(argv)
    args.client = Client(args.pace, args.connections, args.reads, args.moves)
    if args.quick:
        args.matches, args.seconds, args.configs = 4, 8.0, "embedded,pg1,pg2"
    args.configs = [c.strip() for c in args.configs.split(",") if c.strip()]
    unknown = [c for c in args.configs if c not in CONFIGS]
    if unknown:
        parser.error(f"unknown config(s): {', '.join(unknown)}")
    if args.matches < 1 or args.seconds <= 0:
        parser.error("--matches and --seconds must be positive")
    return args


async def run_all(args: argparse.Namespace) -> list[dict[str, Any]]:
    results = []
    for name in args.configs:
        direct = None
        for via_proxy in (False, True) if args.via_proxy else (False,):
            begun = time.perf_counter()
            result = await run_config(CONFIGS[name], args, via_proxy=via_proxy)
            result["wall_seconds"] = round(time.perf_counter() - begun, 1)
            say(f"[{result['config']}] done in {result['wall_seconds']:.0f} s")
            if direct is not None:
                result["proxy_cost"] = proxy_cost(direct, result)
            print(render(result), flush=True)
            print(flush=True)
            results.append(result)
            direct = result
    return results


def nginx_seconds(front: Front | None) -> float:
    """CPU seconds of nginx's processes so far (its master and workers)."""
    return sum(cpu_seconds(pid) for pid in process_tree(front.pid)) if front else 0.0


def proxy_cost(direct: dict[str, Any], proxied: dict[str, Any]) -> dict[str, Any]:
    """What nginx added per move, same players and pace without it and with it: the move's
    round trip and its push to the opponent (ms added at p50 and p95, and the ratios), and the
    CPU per move of the run's processes, nginx's own apart."""
    cost: dict[str, Any] = {}
    for measure in ("post_ms", "push_ms"):
        for p in ("p50", "p95"):
            before, after = direct[measure][p], proxied[measure][p]
            cost[f"{measure[:-3]}_{p}_added_ms"] = round(after - before, 2)
            cost[f"{measure[:-3]}_{p}_ratio"] = round(after / before, 2) if before else None
    # The run's own processes (the machine's total counts whatever else runs on it).
    ours = ("servers", "postgres", "redis", "nginx", "client")
    parts = [r["cpu_seconds"]["parts_ms_per_move"] for r in (direct, proxied)]
    cost["cpu_ms_per_move_without_and_with"] = [
        round(sum(p.get(k, 0.0) for k in ours), 2) for p in parts
    ]
    cost["nginx_cpu_ms_per_move"] = parts[1].get("nginx", 0.0)
    return cost


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)

    def stop(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    say(
        f"bench.live: {args.matches} matches, {args.seconds:.0f} s of play, "
        f"configs {', '.join(args.configs)}, a move per match every {MOVE_PERIOD:.0f} s; "
        f"clients: {args.client}"
    )
    begun = time.perf_counter()
    try:
        results = asyncio.run(run_all(args))
    except KeyboardInterrupt:
        say("interrupted: servers stopped, databases dropped")
        sys.exit(130)
    say(f"bench.live: finished in {time.perf_counter() - begun:.0f} s")
    if args.json:
        print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
