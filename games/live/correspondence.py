"""Correspondence matches: lobby matches played at the players' own pace, 1, 3 or 7 days a
move (lichess's correspondence) instead of the live move clock.

The player to move has ``days_per_move`` days from the start of their turn
(``Match.turn_began_at``: a draw and the discard after it are one turn). Being away is normal:
no away-claim, and a player may play any number of correspondence matches beside their one
live lobby match (``games.live.presence.in_lobby_match`` counts live ones only). Once the time to
move has run out, the other player may claim the win (``games.live.connection.claimable``).

Here: the offered choices and the check of a client's choice, the deadline of a match, the
time left in words, and a player's "your turn" list (the home page, the lobby and the API).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engine import legal_actions
from games.labels import PRESET_NAMES
from games.models import Match, Seat, seats_with_players
from games.state_cache import load_state
from ginsite.lib import numbers
from ginsite.lib.refusals import Refused

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

DAYS_CHOICES = (1, 3, 7)
# A reminder goes out once per turn when this little of it is left (the smaller of the two).
REMIND_BEFORE = timedelta(hours=12)
REMIND_FRACTION = 4


def check_days(value: Any) -> int | None:
    """A client's days per move: None (or "") for a live match, else 1, 3 or 7; anything
    else is refused, and nothing changes."""
    if value is None or value == "":
        return None
    # 3.0 is the number 3 to JSON; "3.0" from a form is not a whole number.
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    days = numbers.parse(value)
    if days not in DAYS_CHOICES:
        raise _bad_days()
    return days


def _bad_days() -> Refused:
    return Refused(_("Days per move must be 1, 3 or 7 (or none, for a live match)."))


def period(match: Match) -> timedelta | None:
    return timedelta(days=match.days_per_move) if match.days_per_move else None


def deadline(match: Match) -> datetime | None:
    """Until when the player to move may take their time in a running correspondence match;
    None when it is not one, or nobody is on the move (between hands)."""
    days = period(match)
    if days is None or not match.is_active or match.turn_began_at is None:
        return None
    return match.turn_began_at + days


def remind_before(days: int) -> timedelta:
    """How long before the deadline the player to move is reminded."""
    return min(REMIND_BEFORE, timedelta(days=days) / REMIND_FRACTION)


def time_left_words(left: timedelta) -> str:
    """ "2 days 5 hours left", "5 hours left", "40 minutes left", "Time is up"."""
    seconds = int(left.total_seconds())
    if seconds <= 0:
        return _("Time is up")
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = max(1, rest // 60) if not (days or hours) else rest // 60
    if days:
        text = ngettext("%(n)s day", "%(n)s days", days) % {"n": days}
        if hours:
            text += " " + ngettext("%(n)s hour", "%(n)s hours", hours) % {"n": hours}
    elif hours:
        text = ngettext("%(n)s hour", "%(n)s hours", hours) % {"n": hours}
    else:
        text = ngettext("%(n)s minute", "%(n)s minutes", minutes) % {"n": minutes}
    return _("%(time)s left") % {"time": text}


def days_label(days: int) -> str:
    return ngettext("%(n)s day per move", "%(n)s days per move", days) % {"n": days}


@dataclass(frozen=True)
class Turn:
    """One correspondence match waiting for its reader's move."""

    match: Match
    seat: int
    opponent: str
    opponent_username: str | None
    preset: str
    target: int
    days_per_move: int
    deadline: datetime | None
    left: str
    # "move", or "seed": the hand waits for the reader's seed for its deal (docs/fairness.md),
    # and is dealt without it at ``deadline``.
    waiting_for: str = "move"

    def as_json(self) -> dict[str, Any]:
        seconds = None
        if self.deadline is not None:
            seconds = max(0, int((self.deadline - timezone.now()).total_seconds()))
        return {
            "id": self.match.public_id,
            "seat": self.seat,
            "opponent": self.opponent,
            "opponent_username": self.opponent_username,
            "rules": self.match.rules.get("name", self.preset),
            "target": self.target,
            "days_per_move": self.days_per_move,
            "scores": list(self.match.scores or [0, 0]),
            "deadline": self.deadline,
            "seconds_left": seconds,
            "time_left": self.left,
            "version": self.match.version,
            "waiting_for": self.waiting_for,
        }


def your_turn(user: AbstractBaseUser, now: datetime | None = None, limit: int = 100) -> list[Turn]:
    """``user``'s running correspondence matches where it is their move, or where the hand
    waits for their seed for the deal (``waiting_for``), least time left first. (Between hands
    nobody is on the move: either player deals the next one.)"""
    now = now or timezone.now()
    matches = (
        Match.objects.filter(
            Q(turn_began_at__isnull=False) | Q(deal_due__isnull=False),
            status=Match.Status.ACTIVE,
            days_per_move__isnull=False,
            seats__user=user,
            seats__kind=Seat.Kind.PLAYER,
        )
        # Someone is on the move, or the hand waits for the players' seeds.
        .filter(Q(turn_began_at__isnull=False) | Q(deal_due__isnull=False))
        .prefetch_related(seats_with_players())
        .distinct()
    )
    turns = []
    for match in matches[:500]:
        seats = {s.number: s for s in match.seats.all()}
        seat = next(n for n, s in seats.items() if s.user_id == user.pk)
        state = load_state(match)
        if {"type": "seed"} in legal_actions(state, seat):
            waiting, due = "seed", match.deal_due
            left = _("the deal waits for you")
        elif state.to_act == seat:
            waiting, due = "move", deadline(match)
            left = time_left_words(due - now) if due is not None else ""
        else:
            continue
        other = seats.get(1 - seat)
        turns.append(
            Turn(
                match=match,
                seat=seat,
                opponent=other.display_name if other else "",
                opponent_username=other.user.get_username() if other and other.user else None,
                preset=str(PRESET_NAMES.get(match.rules["name"], match.rules["name"])),
                target=match.rules["target"],
                days_per_move=match.days_per_move or 0,
                deadline=due,
                left=left,
                waiting_for=waiting,
            )
        )
    turns.sort(key=lambda t: (t.deadline is None, t.deadline or now, t.match.pk))
    return turns[:limit]


def waiting_count(user: AbstractBaseUser) -> int:
    """How many running correspondence matches of ``user``'s there are (theirs to move or
    not): the lists say how many wait for the opponents."""
    return (
        Match.objects.filter(
            status=Match.Status.ACTIVE,
            days_per_move__isnull=False,
            seats__user=user,
            seats__kind=Seat.Kind.PLAYER,
        )
        .distinct()
        .count()
    )
