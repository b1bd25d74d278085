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
from django.http import HttpRequest
from django.utils.translation import ngettext

from ginsite import limits
from ginsite.refusals import TooMany


class TooManyMatches(TooMany):
    """Too many new matches against Bea in a short while."""


def client_address(request: HttpRequest) -> str:
    """The client's address (behind a proxy, daphne's ``--proxy-headers`` makes it so)."""
    return str(request.META.get("REMOTE_ADDR") or "unknown")


def admit(player: str, address: str | None) -> Callable[[], None]:
    """The check to run once a match is sure to be made (``admit`` of the door): counts it
    for ``player`` (``"user:<id>"`` or ``"guest:<key hash>"``) and, given, for ``address``
    (guests'), and raises ``TooManyMatches`` past either limit."""

    def check() -> None:
        window = settings.BEA_MATCH_LIMIT_WINDOW
        if address is not None:
            limit = settings.BEA_MATCH_LIMIT_PER_ADDRESS
            retry = limits.over(f"bea-matches-from:{address}", limit, window)
            if retry is not None:
                raise TooManyMatches(_from_address(retry), retry)
        limit = settings.BEA_MATCH_LIMIT_PER_PLAYER
        retry = limits.over(f"bea-matches-by:{player}", limit, window)
        if retry is not None:
            raise TooManyMatches(_by_player(retry), retry)

    return check


def _from_address(retry: int) -> str:
    return ngettext(
        "Too many matches against Bea were started from your network just now. Try again in "
        "%(seconds)d second, or sign in.",
        "Too many matches against Bea were started from your network just now. Try again in "
        "%(seconds)d seconds, or sign in.",
        retry,
    ) % {"seconds": retry}


def _by_player(retry: int) -> str:
    return ngettext(
        "You have started too many matches against Bea just now. Try again in %(seconds)d second.",
        "You have started too many matches against Bea just now. Try again in %(seconds)d seconds.",
        retry,
    ) % {"seconds": retry}
