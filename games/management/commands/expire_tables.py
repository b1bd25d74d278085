"""Delete private tables nobody has used for a week and guest matches against Bea nobody has
touched for 30 days, or never moved in for a day (run it daily; see docs/private-tables.md)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games.bea import guests
from games.lesson import matches as lessons
from games.private.tables import EXPIRE_AFTER_DAYS, expire_tables


class Command(BaseCommand):
    help = (
        "Delete the matches of private tables with no activity for DAYS days (default "
        f"{EXPIRE_AFTER_DAYS}); each table keeps a tombstone so its link says it expired. "
        "Also delete guests' matches against Bea with no activity for GUEST_DAYS days "
        f"(default {guests.EXPIRE_AFTER_DAYS}), and those nobody ever moved in after "
        f"{guests.UNPLAYED_AFTER_DAYS} day."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--days", type=int, default=EXPIRE_AFTER_DAYS)
        parser.add_argument("--guest-days", type=int, default=guests.EXPIRE_AFTER_DAYS)

    def handle(self, *args: Any, days: int, guest_days: int, **options: Any) -> None:
        if days < 1 or guest_days < 1:
            self.stderr.write("--days and --guest-days must be at least 1")
            raise SystemExit(2)
        expired = expire_tables(days=days)
        self.stdout.write(f"{len(expired)} private table(s) expired.")
        removed = guests.expire(days=guest_days)
        self.stdout.write(f"{removed} guest match(es) against Bea removed.")
        # Lessons (games.lesson) nobody has touched for a day: anyone may take one again.
        self.stdout.write(f"{lessons.expire()} lesson(s) removed.")
