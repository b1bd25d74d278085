"""The lobby's one door: challenges, seeks and blocks change only through here, one function
per action, which the lobby's pages (``lobby.views``) and the JSON API (``lobby.api.routes``) both
call, so that an action has the same checks, limits, presence and events whichever way it came.

The adapters find what a request names with the lookups here (``challenge_for``, ``seek_for``,
``player_named``), call one action, and turn a ``ginsite.lib.refusals.Refused`` into their answer.
By what it changes: ``challenges``, ``seeks``, ``blocks``, ``follows``; quick pairing
has a room and a door of its own (``lobby.pool.service``); what a match between two players needs
checked and done, ``pairing``. Who is in the lobby is ``lobby.presence``.
"""

from __future__ import annotations

from .blocks import block, has_blocked, unblock
from .challenges import (
    ANSWER_SHOWN,
    CHALLENGE_TTL,
    CORRESPONDENCE_CHALLENGE_TTL,
    Proposal,
    accept_challenge,
    accept_counter,
    cancel_challenge,
    challenge,
    challenge_for,
    decline_challenge,
)
from .follows import follow, follows, unfollow
from .pairing import player_named
from .seeks import accept_seek, cancel_seek, post_seek, seek_for

__all__ = [
    "ANSWER_SHOWN",
    "CHALLENGE_TTL",
    "CORRESPONDENCE_CHALLENGE_TTL",
    "Proposal",
    "accept_challenge",
    "accept_counter",
    "accept_seek",
    "block",
    "cancel_challenge",
    "cancel_seek",
    "challenge",
    "challenge_for",
    "decline_challenge",
    "follow",
    "follows",
    "has_blocked",
    "player_named",
    "post_seek",
    "seek_for",
    "unblock",
    "unfollow",
]
