"""Arenas (tournaments with a start time, docs/arenas.md): the arena, its players with their
points and streaks, and the matches played in it.

An arena is upcoming before ``starts_at``, running until ``ends_at``, then ending while
matches started before the end are still played, and over once ``finished_at`` is set (the
last of them counted). Its players' points are kept on their rows, each match's points on
its ``ArenaMatch``, so that the standings are one read and a recount from the matches can
check them.
"""

from __future__ import annotations

import secrets
from datetime import datetime

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


def new_arena_id() -> str:
    """An unguessable id: a private arena's page is its invitation link."""
    while (public_id := secrets.token_urlsafe(12)).startswith("-"):
        pass
    return public_id


class Arena(models.Model):
    class Kind(models.TextChoices):
        SCHEDULED = "scheduled", _("Scheduled by the site")
        PRIVATE = "private", _("Private")

    public_id = models.CharField(max_length=24, unique=True, default=new_arena_id, editable=False)
    kind = models.CharField(max_length=16, choices=Kind.choices)
    name = models.CharField(max_length=60)
    preset = models.CharField(max_length=16)
    target = models.PositiveSmallIntegerField()
    rated = models.BooleanField(default=True)
    allow_bots = models.BooleanField(default=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    # Set once the end has come and every match started before it was counted: the podium.
    finished_at = models.DateTimeField(null=True, blank=True)
    # Set when the arena's start was told to those who joined in advance (once, any worker).
    announced_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["starts_at", "pk"]
        indexes = [
            models.Index(fields=["kind", "starts_at"]),
            models.Index(
                fields=["ends_at"],
                condition=models.Q(finished_at__isnull=True),
                name="arenas_not_finished",
            ),
        ]
        constraints = [
            # The site's schedule is made by every worker's sweep: one arena per slot.
            models.UniqueConstraint(
                fields=["preset", "target", "starts_at"],
                condition=models.Q(kind="scheduled"),
                name="one_scheduled_arena_per_slot",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.preset}/{self.target}, {self.starts_at:%Y-%m-%d %H:%M})"


class ArenaPlayer(models.Model):
    """One player in one arena: points, the current streak of wins, and whether they may be
    paired now (``free_since`` set, not ``paused``)."""

    arena = models.ForeignKey(Arena, on_delete=models.CASCADE, related_name="players")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    # The player's rating in the arena's preset when they joined (pairing, performance).
    rating = models.FloatField()
    is_bot = models.BooleanField(default=False)
    joined_at = models.DateTimeField()
    points = models.IntegerField(default=0)
    streak = models.PositiveSmallIntegerField(default=0)
    wins = models.PositiveSmallIntegerField(default=0)
    games = models.PositiveSmallIntegerField(default=0)
    # The sum of the counted games' opponents' ratings (the performance rating).
    opponents_rating = models.FloatField(default=0)
    # When the player last scored: of two with equal points and performance, the earlier ranks
    # higher (they got there first).
    scored_at = models.DateTimeField(null=True, blank=True)
    # Waiting for a pairing since then; null while they play (or before the start).
    free_since = models.DateTimeField(null=True, blank=True)
    paused = models.BooleanField(default=False)
    last_opponent = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Left for good, or taken out by a moderator's sanction: no pairing, no place.
    removed = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["arena", "user"], name="one_place_per_arena"),
        ]
        indexes = [models.Index(fields=["arena", "-points"])]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.arena_id}: {self.points}"


class ArenaMatch(models.Model):
    """A match played in an arena, and what it counted for (``counted_at`` set once)."""

    arena = models.ForeignKey(Arena, on_delete=models.CASCADE, related_name="matches")
    match = models.OneToOneField("games.Match", on_delete=models.CASCADE, related_name="+")
    # The players at seat 0 and seat 1.
    first = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    started_at = models.DateTimeField()
    counted_at = models.DateTimeField(null=True, blank=True)
    # What it counted for: "win" (seat ``winner_seat``), or "abort" (nobody scores).
    outcome = models.CharField(max_length=8, blank=True)
    winner_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    first_points = models.SmallIntegerField(default=0)
    second_points = models.SmallIntegerField(default=0)

    class Meta:
        indexes = [
            models.Index(
                fields=["arena"],
                condition=models.Q(counted_at__isnull=True),
                name="arena_matches_running",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match_id} in {self.arena_id}"


UPCOMING, RUNNING, ENDING, OVER = "upcoming", "running", "ending", "over"


def phase(arena: Arena, now: datetime | None = None) -> str:
    """Upcoming before the start, running until the end, ending while matches started before
    the end are played, over once the last of them counted."""
    now = now or timezone.now()
    if arena.finished_at is not None:
        return OVER
    if now < arena.starts_at:
        return UPCOMING
    return RUNNING if now < arena.ends_at else ENDING
