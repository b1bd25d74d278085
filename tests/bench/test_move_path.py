"""bench.move_path, run as docs/a-move.md says, so that it cannot rot: a move from the page (htmx)
and over the table socket each go one way, never calling back into a module below them, reaching
no deeper than 12 modules (issue 40), and the report names the modules they pass through."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from tests.proxied import ROOT


@pytest.mark.parametrize("door", ["htmx", "socket"])
def test_a_move_calls_back_into_no_module_it_left(door: str) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    done = subprocess.run(
        [sys.executable, "-m", "bench.move_path", "--door", door],
        cwd=ROOT,
        env={**env, "DJANGO_SETTINGS_MODULE": "tests.settings"},
        capture_output=True,
        text=True,
        timeout=240,
        check=True,
    )
    summary = next(line for line in done.stdout.splitlines() if line.startswith("one move by"))
    assert summary.endswith(" 0 call-backs"), done.stdout[-3000:]
    assert "games/services/moves.py" in done.stdout  # the door
    assert "games/engine/rules.py" in done.stdout  # the rules
    # What a reader follows from the entry to the move's deepest call, one module after another.
    deepest = re.search(r"the deepest chain, each module calling the next: (\d+)", done.stdout)
    assert deepest is not None and int(deepest.group(1)) <= 12, done.stdout[-3000:]
