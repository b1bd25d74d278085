"""The moderation room's rows: reports, the sanctions moderators give (and lift), the log of
every moderator's action, the client address an account signed up from, the rating refunds a
closure for rating abuse gives, and the latest run of the suspicious patterns.

docs/moderation.md says what each is for; ``reports``, ``actions``, ``refunds`` and
``patterns`` are where they change.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

# At most this many characters in a report's note: a short pointer for the moderator, not a
# channel for long messages (which a reported player never reads anyway).
NOTE_MAX = 280
# A moderator's reason: what the log keeps of why.
REASON_MAX = 500


class Reason(models.TextChoices):
    """What a player reports another for (and what a warning is about)."""

    RATING_ABUSE = "rating_abuse", _("Rating abuse (losing or winning on purpose)")
    RUDE_MESSAGES = "rude_messages", _("Rude messages")
    BOT = "bot", _("Uses a bot without saying so")
    STALLING = "stalling", _("Stalling (letting the clock run)")
    OTHER = "other", _("Something else")


class Report(models.Model):
    """One player's report of another: open until a moderator acts on the reported player or
    dismisses it. One open report per reporter and reported player (the constraint)."""

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        CLOSED = "closed", _("Closed")

    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    reported = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    reason = models.CharField(max_length=16, choices=Reason.choices)
    note = models.CharField(max_length=NOTE_MAX, blank=True)
    # The match it was reported from (the table's link), when there was one.
    match = models.ForeignKey(
        "games.Match", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN)
    created_at = models.DateTimeField(auto_now_add=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            # The database, not a check-then-insert, keeps a second open report out.
            models.UniqueConstraint(
                fields=["reporter", "reported"],
                condition=models.Q(status="open"),
                name="one_open_report_per_pair",
            ),
        ]
        indexes = [models.Index(fields=["status", "reported"])]
        # Who sees the moderators' page and acts there (with is_staff; a superuser too).
        permissions = [("moderate", "Can review reports and act on players")]

    def __str__(self) -> str:
        return f"report {self.pk}: {self.reporter_id} -> {self.reported_id} {self.status}"


class Sanction(models.Model):
    """What a moderator did to a player that lasts until lifted: a warning (until the player
    acknowledges it), a mute of quick messages, a ban from rated play, a ban from reporting,
    or the account closed."""

    class Kind(models.TextChoices):
        WARNING = "warning", _("Warning")
        MUTE = "mute", _("Quick messages muted")
        RATED_BAN = "rated_ban", _("Banned from rated play")
        REPORT_BAN = "report_ban", _("Banned from reporting")
        CLOSURE = "closure", _("Account closed")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    # What it is about, from the reasons players report (a warning names it to the player).
    topic = models.CharField(max_length=16, choices=Reason.choices, default=Reason.OTHER)
    reason = models.CharField(max_length=REASON_MAX)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # The player read it and said so (the notice on their pages goes away).
    acknowledged_at = models.DateTimeField(null=True, blank=True)
    lifted_at = models.DateTimeField(null=True, blank=True)
    lifted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    # A closure for rating abuse: the ratings it set back (restored if it is lifted) and the
    # refunds it gave.
    details = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            # One standing sanction of a kind per player: a second is refused, not stacked.
            models.UniqueConstraint(
                fields=["user", "kind"],
                condition=models.Q(lifted_at__isnull=True) & ~models.Q(kind="warning"),
                name="one_standing_sanction_per_kind",
            ),
        ]
        indexes = [models.Index(fields=["user", "lifted_at"])]

    def __str__(self) -> str:
        return f"{self.kind} of {self.user_id}{' (lifted)' if self.lifted_at else ''}"


class LogEntry(models.Model):
    """One moderator action: who, what, to whom, why, when. Never changed or deleted."""

    class Action(models.TextChoices):
        WARN = "warn", _("Warned")
        MUTE = "mute", _("Muted quick messages")
        RATED_BAN = "rated_ban", _("Banned from rated play")
        REPORT_BAN = "report_ban", _("Banned from reporting")
        CLOSE = "close", _("Closed the account")
        LIFT = "lift", _("Lifted")
        DISMISS = "dismiss", _("Dismissed the reports")

    moderator = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    action = models.CharField(max_length=16, choices=Action.choices)
    reason = models.CharField(max_length=REASON_MAX)
    sanction = models.ForeignKey(
        Sanction, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # What the action did, for the record: the kind lifted, the refunds given, ...
    details = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["player", "created_at"])]
        verbose_name_plural = "log entries"

    def __str__(self) -> str:
        return f"{self.moderator_id} {self.action} {self.player_id}"


class SignupAddress(models.Model):
    """The client address an account signed up from, for moderators only (accounts made
    from one address); forgotten after ``retention.SIGNUP_ADDRESS_DAYS``."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="+"
    )
    address = models.GenericIPAddressField()
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    def __str__(self) -> str:
        return f"{self.user_id} from {self.address}"


class RatingRefund(models.Model):
    """Points a closure for rating abuse gave back to one of the closed account's victims in
    one preset: shown in the victim's rating history as a refund."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    closed_account = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    closure = models.ForeignKey(Sanction, on_delete=models.CASCADE, related_name="refunds")
    preset = models.CharField(max_length=16)
    points = models.PositiveIntegerField()
    before = models.FloatField()
    after = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["closure", "user", "preset"], name="one_refund_per_closure"
            ),
        ]
        indexes = [models.Index(fields=["user", "preset", "created_at"])]

    def __str__(self) -> str:
        return f"refund {self.user_id} {self.preset} +{self.points}"

    # Read beside a player's rated results (``lobby.ratings.reads.history``): the same names.
    kind = "refund"
    score = None
    match = None
    limited = ""

    @property
    def opponent(self) -> Any:
        return self.closed_account

    @property
    def delta(self) -> int:
        return round(self.after) - round(self.before)

    @property
    def glicko_delta(self) -> int:
        return self.delta

    @property
    def signed(self) -> str:
        return f"+{self.delta}"


class Suspicion(models.Model):
    """One row of the latest run of the suspicious patterns (``patterns``): a player and how
    often they showed a pattern in the window. Each run replaces the rows of the one before."""

    class Pattern(models.TextChoices):
        NEW_ACCOUNT_WINS = "new_account_wins", _("Many rated wins against new accounts")
        QUICK_RESIGNATIONS = "quick_resignations", _("Rated wins by resignation in a few moves")
        MANY_ABORTS = "many_aborts", _("Many aborted rated matches")

    pattern = models.CharField(max_length=24, choices=Pattern.choices)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    count = models.PositiveIntegerField()
    # The matches and accounts behind the count, for the link to the evidence.
    details = models.JSONField(default=dict, blank=True)
    found_at = models.DateTimeField()

    class Meta:
        ordering = ["pattern", "-count", "user_id"]

    def __str__(self) -> str:
        return f"{self.pattern} {self.user_id} x{self.count}"
