"""The ratings' rows: a rating per player and preset, the lobby matches played for rating,
each rated result as it changed a rating (the history the profile's chart draws), and each
abort a player made (what moderators read, and what makes a player wait: ``aborts``).

Imported by ``lobby.models``, so Django finds them in the lobby app."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .glicko import START_RATING, START_RD, START_VOLATILITY, display


class Rating(models.Model):
    """A player's Glicko-2 rating in one preset. No row yet: the starting rating."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    preset = models.CharField(max_length=16)
    rating = models.FloatField(default=START_RATING)
    rd = models.FloatField(default=START_RD)
    volatility = models.FloatField(default=START_VOLATILITY)
    # Rated matches played in this preset (aborted and casual ones are not).
    games = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "preset"], name="one_rating_per_preset"),
        ]
        indexes = [models.Index(fields=["preset", "-rating"])]

    def __str__(self) -> str:
        return f"{self.user_id} {self.preset} {self.display}"

    @property
    def display(self) -> str:
        return display(self.rating, self.rd)

    @property
    def provisional(self) -> bool:
        return self.display.endswith("?")

    @property
    def rounded(self) -> int:
        return round(self.rating)


class RatedMatch(models.Model):
    """A lobby match its players agreed to play for rating, and what became of that: applied
    once, when it ended (``lobby.ratings.results``)."""

    class Outcome(models.TextChoices):
        PENDING = "pending", _("Rated")
        RATED = "rated", _("Rated")
        # Ended before its first hand was over, or before both players had made two moves.
        ABORTED = "aborted", _("Aborted")
        # These two players had played their rated matches for the day (the farming cap).
        CAPPED = "capped", _("Casual")
        # Replaced by a restart both agreed to (the new match is rated instead).
        RESTARTED = "restarted", _("Restarted")

    match = models.OneToOneField(
        "games.Match", on_delete=models.CASCADE, related_name="rated", primary_key=True
    )
    preset = models.CharField(max_length=16)
    outcome = models.CharField(max_length=16, choices=Outcome.choices, default=Outcome.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True, db_index=True)

    def __str__(self) -> str:
        return f"rated {self.match_id}: {self.outcome}"


class RatingChange(models.Model):
    """One rated result for one player: their rating before and after it.

    ``after`` is the rating applied. ``glicko_after`` is what Glicko-2 computed; the two differ
    when a gain against a new account was limited (``limited``, ``lobby.ratings.allowance``)."""

    class Limit(models.TextChoices):
        NONE = "", _("not limited")
        NEW_ACCOUNTS = "new_accounts", _("wins against new accounts")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    opponent = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="+")
    preset = models.CharField(max_length=16)
    score = models.FloatField()  # 1 won, 0 lost
    before = models.FloatField()
    after = models.FloatField()
    rd_after = models.FloatField()
    # Null for results stored before gains were limited: Glicko-2's was the one applied.
    glicko_after = models.FloatField(null=True, blank=True)
    # The opponent was a new account (``allowance.is_new``) when this result was applied: a
    # gain here is counted against the player's daily allowance.
    new_opponent = models.BooleanField(default=False)
    limited = models.CharField(max_length=16, choices=Limit.choices, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["match", "user"], name="one_change_per_match"),
        ]
        indexes = [models.Index(fields=["user", "preset", "created_at"])]

    def __str__(self) -> str:
        return f"{self.user_id} {self.preset} {self.before:.0f}->{self.after:.0f}"

    @property
    def delta(self) -> int:
        return round(self.after) - round(self.before)

    @property
    def signed(self) -> str:
        """The change as the result shows it: "+12", "-8", "±0"."""
        return f"{self.delta:+d}" if self.delta else "±0"

    @property
    def glicko_delta(self) -> int:
        """The change Glicko-2 computed, before any limit."""
        computed = self.after if self.glicko_after is None else self.glicko_after
        return round(computed) - round(self.before)


class Abort(models.Model):
    """A rated match a player ended before its first hand was over (resigned, walked out, or
    let their time run out): rated for nobody, and counted against them (``aborts``)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    match = models.OneToOneField("games.Match", on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]
        indexes = [models.Index(fields=["user", "created_at"])]

    def __str__(self) -> str:
        return f"abort by {self.user_id} in {self.match_id}"
