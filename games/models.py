"""Matches as the engine's log: rules, seats, the seed, and the ordered actions.

The current state of a match is a pure function of these rows (``state_cache.load_state``); the
seed and the stacked deck are secrets and never leave the server.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


def new_public_id() -> str:
    """An unguessable id for URLs (128 bits of randomness), never starting with "-" so that
    a command line (``python -m ginclient play <id>``) cannot take it for an option."""
    while (public_id := secrets.token_urlsafe(16)).startswith("-"):
        pass
    return public_id


def new_seed() -> str:
    return secrets.token_hex(16)


def new_invite_token() -> str:
    """The secret part of a private table's invitation link (128 bits of randomness)."""
    return secrets.token_urlsafe(16)


class PrivateTable(models.Model):
    """A table for two friends, reached by its invitation link (``games.private.tables``).

    Its matches (a restart by agreement replaces one) hang off it through ``Match.table``.
    When it expires its matches are deleted and this row stays as a small tombstone, so the
    link can say "expired" instead of "not found".
    """

    token = models.CharField(max_length=32, unique=True, default=new_invite_token, editable=False)
    allow_spectators = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    expired_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"private table {self.pk}" + (" (expired)" if self.expired_at else "")


class Match(models.Model):
    class Kind(models.TextChoices):
        BEA = "bea", _("Against Bea")
        LOBBY = "lobby", _("Lobby")
        PRIVATE = "private", _("Private table")
        LOCAL = "local", _("Pass and play")
        # A guided first hand against Bea (games.lesson): its seat is a guest's, so it counts
        # for nobody.
        LESSON = "lesson", _("Lesson")

    class Status(models.TextChoices):
        ACTIVE = "active", _("In progress")
        FINISHED = "finished", _("Finished")
        RESIGNED = "resigned", _("Resigned")
        ABANDONED = "abandoned", _("Abandoned")
        # Won by the other seat: the player to move stayed away too long (the winner claimed it).
        TIMED_OUT = "timed_out", _("Won on time")
        # Replaced by a new match both players agreed to; counts for nobody.
        RESTARTED = "restarted", _("Restarted")

    public_id = models.CharField(max_length=32, unique=True, default=new_public_id, editable=False)
    kind = models.CharField(max_length=16, choices=Kind.choices)
    rules = models.JSONField()
    seed = models.CharField(max_length=64, default=new_seed, editable=False)
    first_deck = models.JSONField(null=True, blank=True, editable=False)
    version = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.ACTIVE)
    winner_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    scores = models.JSONField(default=list, blank=True)
    # Both players agreed, when the match was made, that either may ask what Bea would do
    # (the hint); otherwise it is offered only against Bea and in pass-and-play.
    hints = models.BooleanField(default=False)
    # The provably fair scheme that deals its hands (games.engine.fair, docs/fairness.md):
    # 2, seeded by both players, for every match made now. Matches made before keep the one
    # they were dealt with: 1 (the players' seeds cut the stock) or 0 (none).
    fair = models.PositiveSmallIntegerField(default=2, editable=False)
    # While a hand waits for the players' seeds: when it is dealt without the seeds that have
    # not come by then (``services.deal_overdue``). Null otherwise.
    deal_due = models.DateTimeField(null=True, blank=True, editable=False)
    previous = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="next_matches"
    )
    # The private table this match is played at (restarts and rematches stay at it).
    table = models.ForeignKey(
        PrivateTable, null=True, blank=True, on_delete=models.SET_NULL, related_name="matches"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # When the last action was made: the player to move has been on the move since then.
    moved_at = models.DateTimeField(null=True, blank=True)
    # A correspondence match (lobby only): the player to move has this many days from the
    # start of their turn (``games.live.correspondence``). Null: a live match, with the move clock.
    days_per_move = models.PositiveSmallIntegerField(null=True, blank=True, editable=False)
    # When the seat to move now came to be on the move (a draw then a discard is one turn);
    # null while nobody is (between hands, before the deal). Correspondence counts from it.
    turn_began_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-updated_at"]
        indexes = [
            models.Index(fields=["kind", "status"]),
            models.Index(
                fields=["deal_due"],
                condition=models.Q(deal_due__isnull=False),
                name="matches_awaiting_seeds",
            ),
            # The reminders' sweep and the "your turn" lists read running correspondence.
            models.Index(
                fields=["days_per_move", "turn_began_at"],
                condition=models.Q(days_per_move__isnull=False, status="active"),
                name="correspondence_turns",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.public_id} v{self.version}"

    @property
    def is_active(self) -> bool:
        return self.status == self.Status.ACTIVE

    @property
    def group_name(self) -> str:
        """The Channels group of everyone watching this match."""
        return table_group(self.public_id)


def table_group(public_id: str) -> str:
    """The Channels group of everyone watching the match ``public_id``."""
    return f"match-{public_id}"


class Seat(models.Model):
    """Who sits at seat 0 or 1: a signed-in player, a guest holding a seat key, or Bea."""

    class Kind(models.TextChoices):
        PLAYER = "player", _("Player")
        GUEST = "guest", _("Guest")
        BEA = "bea", _("Bea")
        LOCAL = "local", _("Player on this device")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=16, choices=Kind.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="seats",
    )
    name = models.CharField(max_length=40, blank=True)
    bea_level = models.CharField(max_length=16, blank=True)
    guest_key_hash = models.CharField(max_length=128, blank=True, editable=False)
    # Live presence, shared by every server process through the database: how many sockets
    # this seat holds open now, and when one of them last proved alive (connect, heartbeat,
    # disconnect). A process that dies leaves ``connections`` too high, so a seat only counts
    # as connected while ``last_seen`` is also fresh.
    connections = models.PositiveSmallIntegerField(default=0)
    last_seen = models.DateTimeField(null=True, blank=True)
    # Any other sign of life of the seat's player: a move, a request about the match through
    # the API, an open event stream. An API client opens no table socket and is here all the
    # same.
    last_active = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="one_player_per_seat"),
        ]

    def __str__(self) -> str:
        return f"seat {self.number} of {self.match_id}: {self.display_name}"

    @property
    def is_open(self) -> bool:
        """A private table's second seat before anyone has taken it."""
        return self.kind == self.Kind.GUEST and self.user_id is None and not self.guest_key_hash

    @property
    def display_name(self) -> str:
        if self.kind == self.Kind.BEA:
            return "Bea"
        if self.kind == self.Kind.LOCAL:
            # On one device the owner's account sits at both seats; each has its own name.
            return self.name or str(_("Player %(n)s") % {"n": self.number + 1})
        if self.is_open:
            return str(_("Your friend"))
        if self.user is not None:
            profile = getattr(self.user, "profile", None)
            return getattr(profile, "display_name", "") or self.user.get_username()
        return self.name or str(_("Guest"))


class Action(models.Model):
    """One applied action. ``seq`` is the match version after it: unique, so a repeated
    submission can never be stored twice."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="actions")
    seq = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    payload = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["seq"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seq"], name="one_action_per_version"),
        ]

    def __str__(self) -> str:
        return f"{self.match_id}#{self.seq} seat {self.seat}: {self.payload}"


class HandRecord(models.Model):
    """A finished hand, kept for statistics and the hand history (no cards)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="hand_records")
    hand_number = models.PositiveIntegerField()
    kind = models.CharField(max_length=16)
    knocker_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    winner_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    points = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "hand_number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "hand_number"], name="one_record_per_hand"),
        ]

    def __str__(self) -> str:
        return f"{self.match_id} hand {self.hand_number}: {self.kind} {self.points}"


class HandReview(models.Model):
    """Bea's notes on a finished hand, move by move (``games.ai.review``), stored the first time
    the hand's replay is read: the notes never change once the hand is over, and are never
    computed before (``games.records.replays``). ``notes`` holds one list of notes per position of
    the hand, the deal first; ``version`` is the reviewer's, so a better reviewer redoes old
    ones."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="hand_reviews")
    hand_number = models.PositiveIntegerField()
    notes = models.JSONField(default=list)
    version = models.PositiveSmallIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "hand_number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "hand_number"], name="one_review_per_hand"),
        ]

    def __str__(self) -> str:
        return f"review of {self.match_id} hand {self.hand_number}"


class Offer(models.Model):
    """A proposal from one seat that needs the other's yes: a rematch after the match, or a
    restart in the middle of it. At most one is pending per match."""

    class Kind(models.TextChoices):
        REMATCH = "rematch", _("Rematch")
        RESTART = "restart", _("Restart")

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for an answer")
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined")
        WITHDRAWN = "withdrawn", _("Withdrawn")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="offers")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    from_seat = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    # The match that an accepted offer started; both pages follow it there.
    result = models.ForeignKey(
        Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            # A double click or two tabs can never leave two open offers on one match.
            models.UniqueConstraint(
                fields=["match"],
                condition=models.Q(status="pending"),
                name="one_pending_offer_per_match",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} from seat {self.from_seat} on {self.match_id}: {self.status}"


class Announcement(models.Model):
    """What one change of a match announces (``games.events.MatchChanged``, as JSON), written
    in the change's own transaction: an outbox. It is delivered to the subscribers once, after
    the commit, by the process that made the change, or else (that process died in between)
    by any worker's sweep (``games.outbox``). Holds ids and versions, never a card."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="+")
    change = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)
    delivered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["pk"]
        indexes = [
            models.Index(
                fields=["match", "id"],
                condition=models.Q(delivered_at__isnull=True),
                name="undelivered_announcements",
            ),
            models.Index(fields=["delivered_at"], name="delivered_announcements"),
        ]

    def __str__(self) -> str:
        state = "delivered" if self.delivered_at else "pending"
        return f"announcement {self.pk} of {self.match_id}: {state}"


class HandOrder(models.Model):
    """How a seat's player arranges their hand: a sort, or the order they dragged the cards
    into during one hand. Private to that seat: only its own table ever renders it, and it
    changes nothing of the rules or of what anyone else sees."""

    class Sort(models.TextChoices):
        MELDS = "melds", _("melds first")
        SUIT = "suit", _("by suit")
        RANK = "rank", _("by rank")

    seat = models.OneToOneField(Seat, on_delete=models.CASCADE, related_name="hand_order")
    sort = models.CharField(max_length=8, choices=Sort.choices, default=Sort.MELDS)
    # A dragged order, for hand ``hand_number`` only; the next hand starts from ``sort``.
    cards = models.JSONField(default=list, blank=True)
    hand_number = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"hand order of {self.seat_id}: {self.sort}"


class MessageMute(models.Model):
    """One reader of a match who muted its quick messages (``games.live.quick_messages``): a seat
    (``"seat:0"``, ``"seat:1"``) or a signed-in watcher (``"user:<id>"``). Their table shows
    no bubble and their event stream gets no message event of this match."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="+")
    reader = models.CharField(max_length=40)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "reader"], name="mute_once_per_reader"),
        ]

    def __str__(self) -> str:
        return f"{self.reader} muted {self.match_id}"


def seats_with_players() -> models.Prefetch:
    """A match's seats with their accounts and profiles (the names they show) in one query, a
    join, instead of one query each for the seats, the accounts and the profiles."""
    return models.Prefetch("seats", queryset=Seat.objects.select_related("user__profile"))


from games.review.models import HandJudgement  # noqa: E402, F401 (Django finds it here)
