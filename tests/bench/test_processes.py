"""A server a test starts dies with the process that started it, however that one ends: an
orphaned server would hold its test database ("being accessed by other users") and fail every
later run on the machine, as two daphnes left by workers that pytest-timeout ended did."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bench.harness.processes import dying_with_parent

STARTER = """
import signal, subprocess, sys, time
from bench.harness.processes import dying_with_parent
if sys.argv[1] == "ignoring":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # inherited by what it starts, across exec
child = subprocess.Popen(dying_with_parent([sys.executable, "-c", "import time; time.sleep(60)"]))
print(child.pid, flush=True)
time.sleep(60)
"""


def _alive(pid: int) -> bool:
    """Running, not a zombie waiting for a parent to reap it."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


@pytest.mark.parametrize("sigterm", ["default", "ignoring"])
def test_a_started_server_dies_when_its_starter_is_killed(sigterm: str) -> None:
    """Also when the starter ignores SIGTERM, as a harness may have it do: an ignored signal
    stays ignored across an exec, and the server outlived its starter (CI's run of the stop of
    2026-12-07 saw it outlive it; this is one way that happens, and the old code fails here)."""
    root = Path(__file__).resolve().parents[2]
    starter = subprocess.Popen(
        [sys.executable, "-c", STARTER, sigterm], cwd=root, stdout=subprocess.PIPE, text=True
    )
    assert starter.stdout is not None
    child = int(starter.stdout.readline())
    # Once the guard has set the signal and become the server (a crash in its first instant
    # would go unseen; a server lives for seconds before any test of it can end).
    deadline = time.monotonic() + 10
    while b"dying_with_parent" in Path(f"/proc/{child}/cmdline").read_bytes():
        assert time.monotonic() < deadline, "the guard never ran the command"
        time.sleep(0.01)
    assert _alive(child)
    starter.send_signal(signal.SIGKILL)  # as pytest-timeout's thread method or kill -9 would
    starter.wait(timeout=10)
    deadline = time.monotonic() + 10
    while _alive(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    alive = _alive(child)
    if alive:
        subprocess.run(["kill", str(child)], check=False)
    assert not alive, "the server outlived the process that started it"


def test_the_command_itself_is_run_unchanged() -> None:
    out = subprocess.run(
        dying_with_parent([sys.executable, "-c", "import sys; print(sys.argv[1:])", "a", "--b"]),
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.strip() == "['a', '--b']"
