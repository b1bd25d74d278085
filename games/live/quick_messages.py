"""Quick messages: the two players of a match between people say one of a fixed set of
phrases ("Good luck", "Good game", ...), shown to both as a bubble on the table. No free text,
so there is nothing to moderate and every reader sees the phrase in their own language.

A message belongs to its match, so it lives here in ``games``: a seat sends it (``send``, for
the page and the API alike), the table's group hears ``{"type": "match.quick_message"}`` with
the seat and the message's id after the commit, and each table socket renders the bubble for
its own reader (``bubble``) unless that reader muted the match. Watchers see the bubbles (the
phrases are fixed and friendly, and they are part of the match as it is played, like the moves)
but cannot send. Two players kept apart by a block (``access.players_kept_apart``) send none to
each other, in any match they share, running or over. ``sent`` tells the subscribers (the
lobby's event streams) of each message. One per COOLDOWN_SECONDS per player
(``ginsite.lib.limits.cooldown``); an account a moderator muted is refused (``silenced``, answered
by ``lobby.moderation``).
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.dispatch import Signal
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import access, events
from games.models import Match, MessageMute, Seat
from ginsite.lib import limits
from ginsite.lib.after_commit import group_send_after_commit
from ginsite.lib.refusals import NotAllowed, Refused, TooMany

# The stable ids clients send, and the phrases people see.
MESSAGES = {
    "good_luck": gettext_lazy("Good luck"),
    "good_game": gettext_lazy("Good game"),
    "nice_gin": gettext_lazy("Nice gin!"),
    "thanks": gettext_lazy("Thanks"),
    "well_played": gettext_lazy("Well played"),
    "oops": gettext_lazy("Oops"),
}
COOLDOWN_SECONDS = 3
# Where people play each other; Bea, one device and the lessons have nobody to talk to.
KINDS = (Match.Kind.LOBBY, Match.Kind.PRIVATE)

sent = Signal()  # kwargs: match (Match), seat (int), message (str)

# Whether a player may speak at all is for the lobby's moderators to say (a mute), and games
# imports nothing of the lobby: it asks, as ``access.keeping_apart`` does. Each receiver
# returns why the account may not send (said to the sender, in their language) or None.
silenced = Signal()  # kwargs: user_id


class UnknownMessage(Refused, status=400, code="unknown_message"):
    """A message id outside the fixed set."""


def available(match: Match) -> bool:
    """Between two people: a lobby match or a private table with both seats taken."""
    if match.kind not in KINDS:
        return False
    seats = list(match.seats.all())
    return len(seats) == 2 and all(_person(seat) for seat in seats)


def _person(seat: Seat) -> bool:
    if seat.kind == Seat.Kind.PLAYER:
        return seat.user_id is not None
    return seat.kind == Seat.Kind.GUEST and not seat.is_open


def reader_key(seat: int | None, user: Any) -> str | None:
    """How a reader is known for muting: their seat, else their account; None for a watcher
    without one (who cannot mute)."""
    if seat is not None:
        return f"seat:{seat}"
    if user is not None and user.is_authenticated:
        return f"user:{user.pk}"
    return None


def _sender_key(match: Match, seat: int) -> str:
    """Whose cooldown: the account's (one per few seconds whatever the match), else the
    guest's seat."""
    held = next((s for s in match.seats.all() if s.number == seat), None)
    if held is not None and held.user_id is not None:
        return f"quick:user:{held.user_id}"
    return f"quick:{match.pk}:{seat}"


def _refuse_if_silenced(match: Match, seat: int) -> None:
    held = next((s for s in match.seats.all() if s.number == seat), None)
    if held is None or held.user_id is None:
        return  # a guest at a private table: no account to mute
    for _receiver, reason in silenced.send(sender=Match, user_id=held.user_id):
        if reason:
            raise NotAllowed(str(reason))


def send(match: Match, seat: int | None, message: str) -> None:
    """The player in ``seat`` says ``message`` (an id of MESSAGES) to the table."""
    if message not in MESSAGES:
        choices = ", ".join(MESSAGES)
        raise UnknownMessage(_("Unknown message. Choose one of: %(ids)s.") % {"ids": choices})
    if seat is None:
        raise NotAllowed(_("Only the players send quick messages; watchers see them."))
    if not available(match):
        raise NotAllowed(_("Quick messages are for matches between two people."))
    _refuse_if_silenced(match, seat)
    if access.players_kept_apart(match):
        # A block either way, in this match or any other, running or over: the blocked
        # player must not reach the blocker through a table they once shared (issue 39).
        raise NotAllowed(
            _("Quick messages between you and %(name)s are off.") % _other(match, seat)
        )
    wait = limits.cooldown(_sender_key(match, seat), COOLDOWN_SECONDS)
    if wait is not None:
        raise TooMany(
            _("One quick message every %(n)s seconds, please.") % {"n": COOLDOWN_SECONDS}, wait
        )
    with transaction.atomic():
        frame = {"type": "match.quick_message", "seat": seat, "message": message}
        group_send_after_commit(match.group_name, frame)
        events.tell(sent, about=f" on {match.public_id}", match=match, seat=seat, message=message)


def _other(match: Match, seat: int) -> dict[str, str]:
    other = next((s for s in match.seats.all() if s.number != seat), None)
    return {"name": other.display_name if other is not None else ""}


def muted_readers(match_id: int) -> set[str]:
    return set(MessageMute.objects.filter(match_id=match_id).values_list("reader", flat=True))


def is_muted(match_id: int, reader: str | None) -> bool:
    return (
        reader is not None and MessageMute.objects.filter(match_id=match_id, reader=reader).exists()
    )


def set_muted(match: Match, reader: str | None, muted: bool) -> None:
    """Mute (or unmute) the match's quick messages for one reader."""
    if reader is None:
        raise NotAllowed(_("Sign in to mute quick messages."))
    if not muted:
        MessageMute.objects.filter(match=match, reader=reader).delete()
        return
    try:
        with transaction.atomic():
            MessageMute.objects.get_or_create(match=match, reader=reader)
    except IntegrityError:
        pass  # two clicks at once: the other one muted it


def bubble(match_pk: int, reader_seat: int | None, user: Any, seat: int, message: str) -> str:
    """The bubble one reader's table shows for ``message`` from ``seat``, as an out-of-band
    swap, in the active language; "" when the reader muted the match (or for an unknown id)."""
    if message not in MESSAGES or is_muted(match_pk, reader_key(reader_seat, user)):
        return ""
    held = Seat.objects.select_related("user__profile").filter(match_id=match_pk, number=seat)
    sender = held.first()
    name = _("You") if reader_seat == seat else (sender.display_name if sender else "")
    context = {"name": name, "text": MESSAGES[message], "message": message, "seat": seat}
    return render_to_string("games/_quick_bubble.html", context)
