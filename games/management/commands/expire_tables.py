"""Delete private tables nobody has used for a week (run it daily; see docs/private-tables.md)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games.private import EXPIRE_AFTER_DAYS, expire_tables


class Command(BaseCommand):
    help = (
        "Delete the matches of private tables with no activity for DAYS days (default "
        f"{EXPIRE_AFTER_DAYS}); each table keeps a tombstone so its link says it expired."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--days", type=int, default=EXPIRE_AFTER_DAYS)

    def handle(self, *args: Any, days: int, **options: Any) -> None:
        if days < 1:
            self.stderr.write("--days must be at least 1")
            raise SystemExit(2)
        expired = expire_tables(days=days)
        self.stdout.write(f"{len(expired)} private table(s) expired.")
