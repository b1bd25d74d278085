"""What each scope lets an app do, and which scope a request needs.

``read`` is everything a GET shows (the player's matches with their own hand, the events);
``play`` is what a seat does at a table it already has (moves, resigning, offers, the table's
messages); ``lobby`` is everything else that changes something (challenges, seeks, the pool, a
match against Bea, follows, reports, push subscriptions). A personal token has every scope.
"""

from __future__ import annotations

import re

from django.utils.translation import gettext_lazy as _

READ, PLAY, LOBBY = "read", "play", "lobby"

# Shown on the consent page and in Settings (the toolkit's SCOPES setting).
DESCRIPTIONS = {
    READ: _("See your matches, your hand at your tables, your ratings and your events"),
    PLAY: _("Play at your tables: moves, resigning, offers and table messages"),
    LOBBY: _("Act in the lobby for you: challenges, seeks, quick pairing and follows"),
}
ALL = tuple(DESCRIPTIONS)

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
# A seat's own doings at a match it is in; starting one (``/matches/bea``) is the lobby's.
_AT_A_TABLE = re.compile(r"^/api/v1/matches/(?!bea/?$)[^/]+/")


def required(method: str, path: str) -> str:
    """The scope an API request with this method and path needs."""
    if method.upper() in SAFE_METHODS:
        return READ
    if _AT_A_TABLE.match(path):
        return PLAY
    return LOBBY


def parse(scope: str) -> frozenset[str]:
    return frozenset(scope.split())
