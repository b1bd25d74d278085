"""The ASGI server processes a benchmark starts, their logs scanned, commands run beside them."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.harness.connections import Http
from bench.harness.processes import cpu_seconds, dying_with_parent, process_tree, rss_bytes
from deploy.workers import DAPHNE_QUIET

ROOT = Path(__file__).resolve().parent.parent.parent
READY_SECONDS = 30.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


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
    # As the site's deploy runs it (deploy/workers.py): no access log of daphne's own.
    return [python, "-m", "daphne", *DAPHNE_QUIET, "-b", host, "-p", str(port), app]


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
                dying_with_parent(server_command(server, port, app)),
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
