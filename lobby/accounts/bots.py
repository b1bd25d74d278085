"""Accounts that play through a bot say so in Settings (``Profile.plays_by_bot``): a BOT badge
beside their name in the lobby and on the table's name plates (a note through
``games.table.add_ons``, so games knows nothing of it). Quick pairing keeps them from humans whose
tile does not allow bots (``lobby.pool.service``)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.models import Match, Seat
from games.table import add_ons as extras
from lobby.models import Profile


def seat_notes(match: Match) -> dict[int, str]:
    """ "BOT" beside each seat whose account played this match through a bot: it said so
    before the match began (a match from before the switch was the person's own)."""
    seats = [s for s in match.seats.all() if s.kind == Seat.Kind.PLAYER and s.user_id is not None]
    if all(_profile_at_hand(seat) for seat in seats):
        # Read with the seats (a table socket's render, ``games.lookups.match_to_show``).
        return {s.number: _("BOT") for s in seats if bot_in(s.user.profile, match)}
    users = {s.user_id: s.number for s in seats}
    bots = Profile.objects.filter(
        user_id__in=list(users), plays_by_bot=True, plays_by_bot_since__lte=match.created_at
    )
    return {users[uid]: _("BOT") for uid in bots.values_list("user_id", flat=True)}


def bot_in(profile: Profile | None, match: Match) -> bool:
    """Did this account play ``match`` through a bot (switched on before it began)?"""
    if profile is None or not profile.plays_by_bot or profile.plays_by_bot_since is None:
        return False
    return profile.plays_by_bot_since <= match.created_at


def _profile_at_hand(seat: Seat) -> bool:
    """Were the seat's account and its profile read with it?"""
    if not Seat._meta.get_field("user").is_cached(seat):  # type: ignore[union-attr]
        return False
    user = seat.user
    return user is not None and type(user).profile.related.is_cached(user)  # type: ignore[attr-defined]


def connect() -> None:
    if seat_notes not in extras.seat_notes:
        extras.seat_notes.append(seat_notes)
