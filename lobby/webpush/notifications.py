"""What a player hears of on their devices when no page of theirs is open (Web Push).

Subscribers, connected in ``lobby.subscribers.connect``: a challenge sent to a player (said
so when it comes from a player they follow), a rematch offered to them at the end of a match
(``games.events.OFFERED``), their turn in a correspondence match (``on_turn``, once per
turn: the change that began it), and a correspondence hand whose deal waits for their seed
(once per wait, as ``/me/your-turn`` lists it). The sweep every server process runs reminds
the player to move when little of their time is left (``remind_due``, once per turn). Each
notice is written in the recipient's language (their profile's, else the site's) and sent
after the commit by ``lobby.webpush.delivery``, which also skips a player who has a page or
stream open. A notice names players and rules, never a card.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from games import events
from games.engine import legal_actions
from games.events import MatchChanged
from games.labels import PRESET_NAMES
from games.live import correspondence
from games.models import Match, Offer, Seat
from games.state_cache import SEED_WAIT_SECONDS, load_state
from lobby.broadcast import publish_to
from lobby.models import Challenge, Follow, TurnReminder, display_name_of, ensure_profile
from lobby.webpush.delivery import Notice, send

# How long a push service keeps a rematch offer for a device that is offline.
REMATCH_TTL_SECONDS = 10 * 60


def _language(user: Any) -> str:
    return ensure_profile(user).language or settings.LANGUAGE_CODE


def on_challenge_saved(sender: Any, instance: Challenge, created: bool, **kwargs: Any) -> None:
    if not created or kwargs.get("raw") or instance.status != Challenge.Status.OPEN:
        return
    challenged = instance.challenged
    seconds = int((instance.expires_at - timezone.now()).total_seconds())
    followed = Follow.objects.filter(follower=challenged, followed=instance.challenger_id).exists()
    with translation.override(_language(challenged)):
        preset = PRESET_NAMES.get(instance.preset, instance.preset)
        rules = {"rules": preset, "target": instance.target}
        name = {"name": display_name_of(instance.challenger)}
        notice = Notice(
            title=(
                _("%(name)s, whom you follow, challenges you") % name
                if followed
                else _("%(name)s challenges you") % name
            ),
            body=(
                _(
                    "%(rules)s to %(target)s points, %(per_move)s: accept or decline it in the "
                    "lobby."
                )
                % {**rules, "per_move": correspondence.days_label(instance.days_per_move)}
                if instance.days_per_move
                else _("%(rules)s to %(target)s points: accept or decline it in the lobby.") % rules
            ),
            url=reverse("lobby:lobby"),
            tag=f"challenge-{instance.pk}",
            ttl=max(seconds, 0),
        )
    send(challenged.pk, notice)


def on_match_changed(
    sender: Any, change: MatchChanged, match: Match | None = None, **kwargs: Any
) -> None:
    if change.reason != events.OFFERED:
        return
    offer = Offer.objects.filter(
        match_id=change.match_id, kind=Offer.Kind.REMATCH, status=Offer.Status.PENDING
    ).first()
    if offer is None:
        return
    seats = {
        s.number: s.user
        for s in Seat.objects.filter(match_id=change.match_id).select_related("user")
    }
    offerer, offered = seats.get(offer.from_seat), seats.get(1 - offer.from_seat)
    if offerer is None or offered is None:
        return  # a guest or Bea: nobody to notify, or no name to give
    with translation.override(_language(offered)):
        notice = Notice(
            title=_("%(name)s offers a rematch") % {"name": display_name_of(offerer)},
            body=_("Accept or decline it at the table."),
            url=reverse("games:table", args=[change.public_id]),
            tag=f"rematch-{offer.pk}",
            ttl=REMATCH_TTL_SECONDS,
        )
    send(offered.pk, notice)


# --- Correspondence -------------------------------------------------------------------------------

# The reminders' sweep runs at most once a minute across all processes (a lock in the cache).
REMIND_EVERY_SECONDS = 60
REMIND_LOCK = "lobby:correspondence-reminders"


_TURN_REASONS = (events.STARTED, events.MOVED, events.HAND_ENDED, events.ENDED)


def on_turn(sender: Any, change: MatchChanged, match: Match | None = None, **kwargs: Any) -> None:
    """A change of a correspondence match that began a player's turn (the opponent moved, or
    the hand was dealt): that player hears of it, once; their "your turn" lists too, as they
    do when a hand begins to wait for the players' seeds."""
    if change.kind != Match.Kind.LOBBY or change.reason not in _TURN_REASONS:
        return
    if match is None:
        match = Match.objects.filter(pk=change.match_id).first()
    if match is None or not match.days_per_move or match.version != change.version:
        return  # not correspondence; or a later change has happened (it tells its own)
    # Only a move begins a turn (a start deals no turn yet: the hand waits for the seeds).
    began = (
        change.reason in (events.MOVED, events.HAND_ENDED)
        and change.to_act is not None
        and match.turn_began_at is not None
        and match.turn_began_at == match.moved_at
    )
    # A hand that now waits for the players' seeds puts the match on their lists until the
    # deal (which begins a turn, and so comes back here).
    waits_for_seeds = match.deal_due is not None and change.status == Match.Status.ACTIVE
    if began or waits_for_seeds or change.reason in (events.STARTED, events.ENDED):
        publish_to(change.players, ["turns"])
    if began and change.status == Match.Status.ACTIVE:
        _notify_turn(match, change.to_act, reminder=False)
    if waits_for_seeds:
        _notify_seed_wait(match)


# A seed wait's notice is sent once per player and wait; the key outlives any wait.
SEED_NOTICE_KEEP_SECONDS = 3600


def _notify_seed_wait(match: Match) -> None:
    """Tell each player whose seed the deal waits for, once per wait (the deal's ``deal_due``
    names it): the other's seed, or the same change told again, sends nothing more. The
    push service keeps it no longer than the wait; the table's "your turn" notice that
    follows the deal replaces it on the device (the same tag)."""
    due = match.deal_due
    state = load_state(match)
    seats = {s.number: s for s in Seat.objects.filter(match=match).select_related("user__profile")}
    for number, seat in seats.items():
        other = seats.get(1 - number)
        if (
            seat.user is None
            or other is None
            or {"type": "seed"} not in legal_actions(state, number)
        ):
            continue
        once = f"lobby:seed-wait-notice:{match.pk}:{number}:{due.timestamp()}"
        if not cache.add(once, 1, timeout=SEED_NOTICE_KEEP_SECONDS):
            continue  # told already: no storm of pushes for one wait
        with translation.override(_language(seat.user)):
            values = {
                "name": other.display_name,
                "rules": PRESET_NAMES.get(match.rules["name"], match.rules["name"]),
                "target": match.rules["target"],
                "seconds": SEED_WAIT_SECONDS,
            }
            notice = Notice(
                title=_("The deal against %(name)s waits for your seed") % values,
                body=_(
                    "%(rules)s to %(target)s: open the table to send it. Without it, the hand "
                    "is dealt in %(seconds)s seconds."
                )
                % values,
                url=reverse("games:table", args=[match.public_id]),
                tag=f"turn-{match.public_id}",
                ttl=max(0, int((due - timezone.now()).total_seconds())),
            )
        send(seat.user_id, notice)


def _notify_turn(match: Match, seat: Any, *, reminder: bool) -> bool:
    """Tell the player in ``seat`` it is their move in ``match`` (or, ``reminder``, that little
    of their time is left), in their language; after the commit. False: nobody to tell."""
    seats = {s.number: s for s in Seat.objects.filter(match=match).select_related("user__profile")}
    player, other = seats.get(seat), seats.get(1 - seat)
    due = correspondence.deadline(match)
    if player is None or player.user is None or other is None or due is None:
        return False
    now = timezone.now()
    with translation.override(_language(player.user)):
        values = {
            "name": other.display_name,
            "rules": PRESET_NAMES.get(match.rules["name"], match.rules["name"]),
            "target": match.rules["target"],
            "left": correspondence.time_left_words(due - now),
        }
        notice = Notice(
            title=(
                _("Little time left against %(name)s")
                if reminder
                else _("Your turn against %(name)s")
            )
            % values,
            body=_("Your move in %(rules)s to %(target)s: %(left)s.") % values,
            url=reverse("games:table", args=[match.public_id]),
            tag=f"turn-{match.public_id}",
            ttl=max(0, int((due - now).total_seconds())),
        )
    send(player.user_id, notice)
    return True


def remind_due(now: datetime | None = None, *, force: bool = False) -> int:
    """Remind each player to move whose correspondence turn is nearly over (under
    ``correspondence.remind_before`` left, not yet past), once per turn; how many. Every
    worker's sweep calls it; it runs at most every REMIND_EVERY_SECONDS (unless ``force``),
    and the unique (match, turn) of ``TurnReminder`` keeps each reminder once."""
    if not force and not cache.add(REMIND_LOCK, 1, timeout=REMIND_EVERY_SECONDS):
        return 0
    now = now or timezone.now()
    sent = 0
    for days in correspondence.DAYS_CHOICES:
        whole = timedelta(days=days)
        due = Match.objects.filter(
            status=Match.Status.ACTIVE,
            days_per_move=days,
            turn_began_at__lte=now - (whole - correspondence.remind_before(days)),
            turn_began_at__gt=now - whole,
        ).exclude(
            Exists(
                TurnReminder.objects.filter(
                    match=OuterRef("pk"), turn_began_at=OuterRef("turn_began_at")
                )
            )
        )
        sent += sum(_remind(match) for match in due[:200])
    return sent


def _remind(match: Match) -> bool:
    try:
        with transaction.atomic():
            TurnReminder.objects.create(match=match, turn_began_at=match.turn_began_at)
            to_act = load_state(match).to_act
            return to_act is not None and _notify_turn(match, to_act, reminder=True)
    except IntegrityError:
        return False  # another worker's sweep reminded them
