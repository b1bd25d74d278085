"""Arranging one's hand: a seat's chosen sort, or the order its player dragged the cards into.

The order is a player's private preference. It is stored per seat, read only when that seat's
own table is drawn (``table.context.table_context``), and never reaches the engine, the other seat,
a watcher, the JSON API or a websocket frame of anyone else.
"""

from __future__ import annotations

from typing import Any

from django.http import QueryDict
from django.utils.translation import gettext as _

from games.engine import ALL_CARDS
from games.models import HandOrder, Match

MAX_CARDS = 11


def save(match: Match, seat: int, view: dict[str, Any], data: QueryDict) -> HandOrder:
    """Store ``sort`` (melds, suit, rank) or ``order`` (space-separated codes of the seat's
    own cards) for ``seat``. Raises ValueError with a message for the player."""
    seat_row = next(s for s in match.seats.all() if s.number == seat)
    order, _created = HandOrder.objects.get_or_create(seat=seat_row)
    if "order" in data:
        codes = data.get("order", "").split()
        hand = set(view["hand"])
        if (
            len(codes) > MAX_CARDS
            or len(set(codes)) != len(codes)
            or any(c not in ALL_CARDS for c in codes)
        ):
            raise ValueError(_("That is not an order of your cards."))
        # Cards no longer in the hand (a page a move behind) are dropped, not refused.
        order.cards = [c for c in codes if c in hand]
        order.hand_number = view["hand_number"]
    else:
        sort = data.get("sort", "")
        if sort not in HandOrder.Sort.values:
            raise ValueError(_("Choose melds first, by suit or by rank."))
        order.sort = sort
        order.cards = []
    order.save()
    return order
