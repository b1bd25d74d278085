"""A run's meters: CPU spent by each part (servers, PostgreSQL, Redis, machine), py-spy samples."""

from __future__ import annotations

import contextlib
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bench.harness.processes import cpu_seconds, machine_cpu, redis_cpu, stolen_cpu
from bench.harness.servers import Server


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
