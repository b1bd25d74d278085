"""The door's refusals: kinds of ``ginsite.lib.refusals.Refused``, each with its own code."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.models import Match
from ginsite.lib.refusals import Refused


class StaleVersion(Refused, status=409, code="stale_version"): ...


class MatchClosed(Refused, status=409, code="match_closed"): ...


class NotYourSeat(Refused, status=403, code="not_your_match"): ...


class IllegalMove(Refused, status=422, code="illegal_move"): ...


class NotConnected(Refused, status=409, code="not_connected"):
    """At a private table both players must be connected for either to move."""


class AlreadyPlaying(Refused, status=409, code="already_playing"):
    """A lobby match for a player who is in another one that is still going."""


class BeaMatchRunning(Refused, status=409, code="bea_match_running"):
    """A new match against Bea while one is running: the caller asks before replacing it."""

    def __init__(self, running: Match, message: str | None = None):
        super().__init__(
            message
            or _(
                "Your match %(id)s against Bea is still running: finish it, or start again "
                "and abandon it."
            )
            % {"id": running.public_id}
        )
        self.running = running
