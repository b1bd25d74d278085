"""How many matches against Bea one may start: a match is stored for as long as its player
may come back to it (30 days for a guest), so without a limit one script made 40 in 1.8 s
from fresh browsers (issue 28).

Counted in fixed windows of the shared cache (``ginsite.limits``), per player (an account,
or a guest's key: BEA_MATCH_LIMIT_PER_PLAYER) and, for guests, per client address too
(BEA_MATCH_LIMIT_PER_ADDRESS), since every fresh browser is a new guest. Only a match that is
made counts: asking whether to abandon the running one does not. One player has one match
against Bea running at a time anyway; a new one abandons it (``services.start_bea_match``).
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.utils.translation import ngettext

from ginsite import limits

from .services import MoveRefused


class TooManyMatches(MoveRefused):
    """Too many new matches in a short while; ``retry_after`` is the seconds to wait."""

    status = 429
    code = "rate_limited"

    def __init__(self, message: str, retry_after: int):
        super().__init__(message)
        self.retry_after = retry_after


def admit(player: str, address: str | None) -> Callable[[], None]:
    """The check to run once a match is sure to be made (``admit`` of the door): counts it
    for ``player`` (``"user:<id>"`` or ``"guest:<key hash>"``) and, given, for ``address``
    (guests'), and raises ``TooManyMatches`` past either limit."""

    def check() -> None:
        window = settings.BEA_MATCH_LIMIT_WINDOW
        if address is not None:
            count, retry = limits.hit(f"bea-matches-from:{address}", window)
            if count > settings.BEA_MATCH_LIMIT_PER_ADDRESS:
                raise TooManyMatches(
                    ngettext(
                        "Too many matches against Bea were started from your network just "
                        "now. Try again in %(seconds)d second, or sign in.",
                        "Too many matches against Bea were started from your network just "
                        "now. Try again in %(seconds)d seconds, or sign in.",
                        retry,
                    )
                    % {"seconds": retry},
                    retry,
                )
        count, retry = limits.hit(f"bea-matches-by:{player}", window)
        if count > settings.BEA_MATCH_LIMIT_PER_PLAYER:
            raise TooManyMatches(
                ngettext(
                    "You have started too many matches against Bea just now. Try again in "
                    "%(seconds)d second.",
                    "You have started too many matches against Bea just now. Try again in "
                    "%(seconds)d seconds.",
                    retry,
                )
                % {"seconds": retry},
                retry,
            )

    return check
