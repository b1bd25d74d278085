"""Accounts: the profile every user has, holding the display name other players see."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ginsite.lib import names
from lobby.ratings.models import (  # noqa: F401 (Django finds them)
    Abort,
    RatedMatch,
    Rating,
    RatingChange,
)


class Profile(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile"
    )
    display_name = models.CharField(_("display name"), max_length=names.MAX_CHARS)
    # ``names.key(display_name)``, kept by ``save``: two names that look alike have the same
    # key, and the unique constraint below keeps the second one out, even when two sign-ups
    # race past the form's check.
    # Text: NFKC and the skeleton may make a name of 24 characters many times longer.
    name_key = models.TextField(editable=False)
    # Blank means "no preference": the cookie or the Accept-Language header decides.
    language = models.CharField(_("language"), max_length=8, blank=True, choices=settings.LANGUAGES)
    # The table's look and sound, kept with the account so every device gets them.
    four_colour_deck = models.BooleanField(
        _("four-colour deck"),
        default=False,
        help_text=_("Clubs green and diamonds blue, so no two suits share a colour."),
    )
    sound_on = models.BooleanField(_("sound at the table"), default=False)
    # Shown as a BOT badge beside the name; quick pairing seats a bot with a human only when
    # the human's tile allows bots (``lobby.pool.service``).
    plays_by_bot = models.BooleanField(
        _("I play through a bot"),
        default=False,
        help_text=_("Your moves are made by a program. Others see a BOT badge beside your name."),
    )
    # Since when: a match that began before the switch was played by the person, and carries
    # no BOT badge (``lobby.accounts.bots``).
    plays_by_bot_since = models.DateTimeField(null=True, blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(Lower("display_name"), name="display_name_unique_ci"),
            models.UniqueConstraint(fields=["name_key"], name="display_name_unique_look"),
        ]

    def __str__(self) -> str:
        return self.display_name

    def save(self, *args: Any, **kwargs: Any) -> None:
        key = names.key(self.display_name)
        # Names that already looked alike when the key learned to see it keep apart: the later
        # one's key carries its id ("bob#7", see the migrations), and keeps it when saved.
        if self.name_key.rpartition("#")[0] != key:
            self.name_key = key
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "display_name" in update_fields:
            kwargs["update_fields"] = {*update_fields, "name_key"}
        if not self.plays_by_bot:
            self.plays_by_bot_since = None
        elif self.plays_by_bot_since is None:
            self.plays_by_bot_since = timezone.now()
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "plays_by_bot" in update_fields:
            kwargs["update_fields"] = {*update_fields, "plays_by_bot_since"}
        super().save(*args, **kwargs)


def display_name_clash(name: str, exclude_user_id: int | None = None) -> str | None:
    """The display name of another user whose name is this one (ignoring case) or looks like
    it (``names.key``), or None."""
    others = Profile.objects.filter(Q(display_name__iexact=name) | Q(name_key=names.key(name)))
    if exclude_user_id is not None:
        others = others.exclude(user_id=exclude_user_id)
    return others.values_list("display_name", flat=True).first()


def display_name_taken(name: str, exclude_user_id: int | None = None) -> bool:
    """Whether another user already has this display name, or one that looks like it."""
    return display_name_clash(name, exclude_user_id) is not None


def free_display_name(username: str) -> str:
    """A display name derived from the username that nobody has yet: alice, alice2, alice3..."""
    base = names.normalise(username)[: names.MAX_CHARS - 4]
    if names.problem(base) not in (None, "reserved"):
        base = "player"
    candidate = base
    n = 1
    while names.problem(candidate) is not None or display_name_taken(candidate):
        n += 1
        candidate = f"{base}{n}"
    return candidate


def ensure_profile(user: Any) -> Profile:
    """The user's profile, created with a free display name when missing."""
    profile, _created = Profile.objects.get_or_create(
        user=user, defaults={"display_name": free_display_name(user.get_username())}
    )
    return profile


def display_name_of(user: Any) -> str:
    """What other players see for this user (allauth's ACCOUNT_USER_DISPLAY, too)."""
    profile = getattr(user, "profile", None)
    return getattr(profile, "display_name", "") or user.get_username()


# --- The lobby: who is here, who challenged whom, open seeks, blocks ------------------------------


class Presence(models.Model):
    """One open lobby or match page (a websocket), or a recent plain page view.

    A player is online while any of their rows was seen within ``presence.PRESENCE_TTL``. Rows
    live in the database, not in a process, so every ASGI worker sees the same lobby; a row whose
    socket died without a close simply goes stale and is swept.
    """

    channel_name = models.CharField(max_length=255, unique=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="presences"
    )
    last_seen = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"{self.user_id} via {self.channel_name} at {self.last_seen:%H:%M:%S}"


class Block(models.Model):
    """``blocker`` takes no challenges from ``blocked`` (and sees none of their seeks)."""

    blocker = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks_made"
    )
    blocked = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks_received"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_once"),
        ]

    def __str__(self) -> str:
        return f"{self.blocker_id} blocks {self.blocked_id}"


class Follow(models.Model):
    """``follower`` follows ``followed``: a friend in the follower's lobby and friends list.
    A block between the two, either way, overrides it (``lobby.people.friends``): never shown."""

    follower = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="follows_made"
    )
    followed = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="followers"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["follower", "followed"], name="follow_once"),
            models.CheckConstraint(
                condition=~Q(follower=models.F("followed")), name="follow_not_self"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.follower_id} follows {self.followed_id}"


class Challenge(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined")
        CANCELLED = "cancelled", _("Cancelled")
        EXPIRED = "expired", _("Expired")

    class Reason(models.TextChoices):
        LATER = "later", _("Maybe later")
        RULES = "rules", _("Different rules, please")
        TARGET = "target", _("Different target, please")
        NOT_INTERESTED = "not_interested", _("Not interested")

    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_sent"
    )
    challenged = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_received"
    )
    preset = models.CharField(max_length=16)
    target = models.PositiveSmallIntegerField()
    # The challenger proposes hints for both players; accepting the challenge agrees to them.
    hints = models.BooleanField(default=False)
    # Played for rating (lobby.ratings); else casual.
    rated = models.BooleanField(default=False)
    # A correspondence match (games.live.correspondence): days per move; null for a live one.
    days_per_move = models.PositiveSmallIntegerField(null=True, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN)
    reason = models.CharField(max_length=16, choices=Reason.choices, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    answered_at = models.DateTimeField(null=True, blank=True)
    match = models.ForeignKey(
        "games.Match", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # A counter-proposal is itself a challenge, back from the player who declined ``counter_to``
    # with the rules they would play: it expires, is accepted once and is refused exactly like
    # any other challenge. The declined challenge reaches it as ``counter``.
    counter_to = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="counter"
    )

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            # The database, not a check-then-insert, keeps a second open challenge out.
            models.UniqueConstraint(
                fields=["challenger", "challenged"],
                condition=models.Q(status="open"),
                name="one_open_challenge_per_pair",
            ),
        ]
        indexes = [models.Index(fields=["status", "expires_at"])]

    def __str__(self) -> str:
        rules = f"{self.preset}/{self.target}"
        return f"{self.challenger_id} -> {self.challenged_id} {rules} {self.status}"


class Seek(models.Model):
    """ "Anyone for a 100-point standard game?" The first player to accept gets the match."""

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        ACCEPTED = "accepted", _("Accepted")
        CANCELLED = "cancelled", _("Cancelled")
        EXPIRED = "expired", _("Expired")

    poster = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="seeks"
    )
    preset = models.CharField(max_length=16)
    target = models.PositiveSmallIntegerField()
    rated = models.BooleanField(default=False)
    days_per_move = models.PositiveSmallIntegerField(null=True, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN)
    created_at = models.DateTimeField(auto_now_add=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="seeks_accepted",
    )
    match = models.ForeignKey(
        "games.Match", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["poster"], condition=models.Q(status="open"), name="one_open_seek"
            ),
        ]

    def __str__(self) -> str:
        return f"seek {self.pk} by {self.poster_id} {self.preset}/{self.target} {self.status}"


class PoolEntry(models.Model):
    """One player waiting in the quick-pairing pool ("Play now"), and what became of it.

    ``rating`` is the player's rating in ``preset`` when they joined; ``previous_opponent`` the
    one they were last paired with, whom they are not paired with again while others wait.
    Paired or cancelled entries stay as the history the next join reads."""

    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting")
        PAIRED = "paired", _("Paired")
        CANCELLED = "cancelled", _("Cancelled")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    preset = models.CharField(max_length=16)
    target = models.PositiveSmallIntegerField()
    rated = models.BooleanField(default=False)
    days_per_move = models.PositiveSmallIntegerField(null=True, blank=True)
    allow_bots = models.BooleanField(default=False)
    is_bot = models.BooleanField(default=False)
    rating = models.FloatField()
    previous_opponent = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.WAITING)
    joined_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)
    opponent = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    match = models.ForeignKey(
        "games.Match", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        constraints = [
            # Joining twice is refused by the database, not by a check-then-insert.
            models.UniqueConstraint(
                fields=["user"], condition=models.Q(status="waiting"), name="one_pool_entry"
            ),
        ]
        indexes = [models.Index(fields=["status", "preset", "target", "rated"])]

    def __str__(self) -> str:
        return f"pool {self.user_id} {self.preset}/{self.target} {self.status}"


# --- The JSON API: personal tokens, idempotent replays, each player's numbered events -------------


class ApiToken(models.Model):
    """A personal API token. Only its SHA-256 digest is stored: the token itself is shown once,
    when it is made. ``prefix`` (the token's first characters) lets its owner tell tokens apart."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(_("name"), max_length=60)
    prefix = models.CharField(max_length=16)
    digest = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…) of {self.user_id}"


class IdempotencyRecord(models.Model):
    """The first answer to a POST that carried an ``Idempotency-Key``, replayed for repeats.

    ``status`` is null while the first request is still running. ``fingerprint`` is a digest of
    the method, path and body, so a key reused for a different request is refused instead of
    answered with an unrelated result.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=255)
    fingerprint = models.CharField(max_length=64)
    status = models.PositiveSmallIntegerField(null=True, blank=True)
    content_type = models.CharField(max_length=100, blank=True)
    body = models.BinaryField(blank=True, default=b"")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="one_record_per_key"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.key}: {self.status}"


class PlayerEvent(models.Model):
    """One event for one player, numbered 1, 2, 3... per player, so that a client reconnecting
    with ``since=N`` gets exactly what it missed. Match events carry no cards: the seat's view
    is rendered when the event is delivered."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    seq = models.PositiveBigIntegerField()
    kind = models.CharField(max_length=32)
    payload = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["user", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["user", "seq"], name="one_event_per_number"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id}#{self.seq} {self.kind}"


# --- Web Push -------------------------------------------------------------------------------------


class PushSubscription(models.Model):
    """One device (a browser's push subscription) a player turned notifications on for.

    ``endpoint`` is the push service's address for that browser; ``p256dh`` and ``auth`` are the
    browser's keys the payload is encrypted with (RFC 8291), both base64url as the browser gives
    them. The push service answering 404 or 410 means the browser dropped it: the row goes too.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(max_length=2000, unique=True)
    p256dh = models.CharField(max_length=100)
    auth = models.CharField(max_length=40)
    # What the player sees in Settings to tell their devices apart ("Chrome on Android").
    device = models.CharField(max_length=80, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at"]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.device or self.endpoint[:40]}"


class TurnReminder(models.Model):
    """The reminder sent to the player to move in a correspondence match when little of
    their time is left (``lobby.webpush.notifications.remind_due``): one per turn, which the unique
    (match, turn) keeps so whichever worker's sweep gets there first."""

    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="+")
    # The turn: when it began (``Match.turn_began_at``).
    turn_began_at = models.DateTimeField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "turn_began_at"], name="one_reminder_a_turn"),
        ]

    def __str__(self) -> str:
        return f"reminder for {self.match_id} at {self.turn_began_at:%Y-%m-%d %H:%M}"
