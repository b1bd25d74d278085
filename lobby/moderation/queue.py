"""The reports as the moderators' page queues them: grouped by reported player, the open ones
first (most distinct reporters first, then the newest), then those closed in the last
CLOSED_DAYS days, newest first."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from .models import Report

CLOSED_DAYS = 30
CLOSED_GROUPS = 30


@dataclass
class Group:
    player: Any
    reports: list[Report] = field(default_factory=list)

    @property
    def reporters(self) -> int:
        """How many different players reported them: ten reports by one count once."""
        return len({r.reporter_id for r in self.reports})

    @property
    def latest(self) -> datetime:
        return max(r.created_at for r in self.reports)

    @property
    def reasons(self) -> list[str]:
        return sorted({r.get_reason_display() for r in self.reports})


def _grouped(reports: Iterable[Report]) -> list[Group]:
    groups: dict[int, Group] = {}
    for item in reports:
        groups.setdefault(item.reported_id, Group(item.reported)).reports.append(item)
    return list(groups.values())


def _reports(**filters: Any) -> Any:
    return Report.objects.filter(**filters).select_related(
        "reporter__profile", "reported__profile", "match"
    )


def open_groups() -> list[Group]:
    groups = _grouped(_reports(status=Report.Status.OPEN))
    return sorted(groups, key=lambda g: (-g.reporters, -g.latest.timestamp()))


def closed_groups() -> list[Group]:
    since = timezone.now() - timedelta(days=CLOSED_DAYS)
    found = _reports(status=Report.Status.CLOSED, closed_at__gte=since).order_by("-closed_at")
    groups = _grouped(found[: CLOSED_GROUPS * 5])
    return groups[:CLOSED_GROUPS]


def reports_of(player: Any) -> list[Report]:
    """Every report of the player, the open ones first, newest first."""
    found = _reports(reported=player).order_by("-status", "-created_at")  # "open" > "closed"
    return list(found[:100])
