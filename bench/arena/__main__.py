"""``python -m bench.arena``: the arena benchmark (bench/arena/run.py)."""

import contextlib

from bench.arena.run import main

with contextlib.suppress(KeyboardInterrupt):
    main()
