"""``manage.py arena A B``: pit two players against each other and report the win rate."""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.ai import arena


class Command(BaseCommand):
    help = (
        "Play many matches between two players (bea:LEVEL, baseline, patient, random or "
        "path/to/file.py:function) and report A's win rate with a 95% confidence interval."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("a", help="player A")
        parser.add_argument("b", help="player B")
        parser.add_argument("--matches", type=int, default=100)
        parser.add_argument("--seed", default="0", help="matches are reproducible from it")
        parser.add_argument("--rules", default="simple", help="rules preset")
        parser.add_argument("--target", type=int, default=None, help="points to win a match")
        parser.add_argument(
            "--processes", type=int, default=None, help="worker processes (default: all cores)"
        )
        parser.add_argument("--json", action="store_true", help="end with one JSON line")

    def handle(self, *args: Any, **options: Any) -> None:
        seed: int | str = options["seed"]
        if isinstance(seed, str) and seed.lstrip("-").isdigit():
            seed = int(seed)
        if options["matches"] < 1:
            raise CommandError("--matches must be at least 1")
        step = max(1, options["matches"] // 20)

        def progress(done: int, total: int) -> None:
            # Roughly every 5%, on stderr so stdout stays the report.
            if done == total or done // step != (done - 1) // step:
                print(f"arena: {done}/{total} matches", file=sys.stderr, flush=True)

        try:
            summary = arena.run(
                options["a"],
                options["b"],
                options["matches"],
                seed=seed,
                preset=options["rules"],
                target=options["target"],
                processes=options["processes"],
                progress=progress,
            )
        except ValueError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(arena.report(summary))
        if options["json"]:
            self.stdout.write(json.dumps(summary.as_dict()))
