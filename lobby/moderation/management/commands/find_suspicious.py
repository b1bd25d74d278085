"""Nightly, from cron: the suspicious patterns for the moderators' page, and the sign-up
addresses past their retention forgotten (docs/moderation.md)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from lobby.moderation import patterns, retention


class Command(BaseCommand):
    help = "Find suspicious patterns for the moderators and forget old sign-up addresses."

    def handle(self, *args: Any, **options: Any) -> None:
        found = patterns.find()
        forgotten = retention.forget_old_addresses()
        self.stdout.write(
            f"{len(found)} suspicious rows found; {forgotten} sign-up addresses forgotten"
        )
