"""What processes and the machine use, read from /proc: CPU, memory, the host's steal, the pace."""

from __future__ import annotations

import contextlib
import os
import sys
import time
from pathlib import Path

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


# Run by the interpreter between the starter and the command: Linux's parent-death signal (prctl
# PR_SET_PDEATHSIG, 1), which an exec keeps; SIGTERM unblocked and at its default, since an
# ignored signal stays ignored across an exec and a CI harness may start us ignoring it; the
# starter's pid checked after, as it may have died before the prctl.
_GUARD = """# dying_with_parent
import ctypes, os, signal, sys
signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM])
signal.signal(signal.SIGTERM, signal.SIG_DFL)
if ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGTERM), 0, 0, 0) != 0:
    sys.exit("dying_with_parent: prctl failed: " + os.strerror(ctypes.get_errno()))
if os.getppid() != int(sys.argv[1]):
    sys.exit("dying_with_parent: the starter ended before its server began")
os.execvp(sys.argv[2], sys.argv[2:])
"""


def dying_with_parent(command: list[str]) -> list[str]:
    """``command``, run so that it gets SIGTERM when the process that started it dies. A server
    a test started then does not outlive a test process ended abruptly (pytest-timeout's thread
    method ends the whole process; kill -9) and hold its test database, as two orphaned daphnes
    did after CI's two runs at once. Linux sends it when the *thread* that started the process
    ends: start servers from one that outlives them (the main thread). Elsewhere than Linux the
    command is run as it is."""
    if not sys.platform.startswith("linux"):
        return command
    return [sys.executable, "-S", "-c", _GUARD, str(os.getpid()), *command]


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


def redis_cpu() -> float:
    """CPU seconds of the machine's Redis servers (their threads included)."""
    total = 0.0
    for comm in Path("/proc").glob("[0-9]*/comm"):
        with contextlib.suppress(OSError):
            if comm.read_text().strip() == "redis-server":
                total += cpu_seconds(int(comm.parent.name))
    return total
