"""Accounts that play through a bot say so in Settings (``Profile.plays_by_bot``): a BOT badge
beside their name in the lobby and on the table's name plates (a note through
``games.extras``, so games knows nothing of it). Quick pairing keeps them from humans whose
tile does not allow bots (``lobby.services.pool``)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games import extras
from games.models import Match, Seat
from lobby.models import Profile


def seat_notes(match: Match) -> dict[int, str]:
    """ "BOT" beside each seat whose account plays through a bot."""
    users = {
        s.user_id: s.number
        for s in match.seats.all()
        if s.kind == Seat.Kind.PLAYER and s.user_id is not None
    }
    bots = Profile.objects.filter(user_id__in=list(users), plays_by_bot=True)
    return {users[uid]: _("BOT") for uid in bots.values_list("user_id", flat=True)}


def connect() -> None:
    if seat_notes not in extras.seat_notes:
        extras.seat_notes.append(seat_notes)
