"""Who is asking, for the JSON API: an account at one match (``games.access``), as a reader
(a seat or a watcher) or as a player (a seat). Someone who may neither play nor watch the
match is told it does not exist (404), a watcher who tries to act that it is not theirs (403):
the services' own refusals, which the API answers like any other. It writes nothing: whether a
request is also the player being here (``presence``) is the endpoint's to say.
"""

from __future__ import annotations

from typing import Any

from games import access, lookups
from games.services import NotYourSeat
from ginsite.lib.refusals import NotFound


def reader(user: Any, public_id: str) -> access.Asker:
    """``user`` at the match ``public_id``, holding a seat or watching; its seats come with
    their players' names."""
    # A player asking about their own match (the common case): their seat and its match in
    # one query, the seats' names in one more (``find`` builds both through the ORM).
    asker = access.held_seat(user, public_id)
    if asker is not None:
        lookups.prefetch_players(asker.match)
        return asker
    asker = access.find(public_id, access.of_account(user))
    if asker is None or not asker.at_table:
        raise NotFound("There is no such match.")
    return asker


def player(user: Any, public_id: str) -> tuple[access.Asker, int]:
    """``user`` at the match ``public_id`` and the seat they hold there."""
    asker = reader(user, public_id)
    if asker.seat is None:
        raise NotYourSeat("You are not playing in this match.")
    return asker, asker.seat
