"""How many matches against Bea, and lessons, one may start: a match is stored for as long as
its player may come back to it (30 days for a guest, a day for a lesson), so without a limit
one script made 40 in 1.8 s from fresh browsers (issue 28), and 60 lessons in 3 s (issue 39).

Counted in fixed windows of the shared cache (``ginsite.lib.limits``), per player (an account,
or a guest's key: BEA_MATCH_LIMIT_PER_PLAYER) and, for guests, per client address too
(BEA_MATCH_LIMIT_PER_ADDRESS), since every fresh browser is a new guest. Only a match that is
made counts: asking whether to abandon the running one does not. One player has one match
against Bea running at a time anyway; a new one abandons it (``services.start_bea_match``).
Lessons are counted alike in a budget of their own (``LESSON_LIMIT_*``): per browser (its guest
key, which holds a lesson even for a signed-in player) and, for visitors without an account,
per address.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.http import HttpRequest
from django.utils.translation import ngettext

from ginsite.lib import limits
from ginsite.lib.refusals import TooMany


class TooManyMatches(TooMany):
    """Too many new matches against Bea in a short while."""


def client_address(request: HttpRequest) -> str:
    """The client's address (behind a proxy, ``ginsite.serving.proxy`` makes it so)."""
    return str(request.META.get("REMOTE_ADDR") or "unknown")


@dataclass(frozen=True)
class Budget:
    """What one kind of start counts against: the cache keys' prefix, the settings of its
    limits and window, and what a refusal says (given the seconds to wait)."""

    name: str
    per_player: str
    per_address: str
    window: str
    from_address: Callable[[int], str]
    by_player: Callable[[int], str]


def admit(player: str, address: str | None, budget: Budget | None = None) -> Callable[[], None]:
    """The check to run once a match is sure to be made (``admit`` of the door): counts it
    for ``player`` (``"user:<id>"`` or ``"guest:<key hash>"``) and, given, for ``address``
    (guests'), and raises ``TooManyMatches`` past either limit. Against Bea unless
    ``budget`` says otherwise (``LESSONS``)."""
    spent = budget or BEA

    def check() -> None:
        window = getattr(settings, spent.window)
        if address is not None:
            limit = getattr(settings, spent.per_address)
            retry = limits.over(f"{spent.name}-from:{address}", limit, window)
            if retry is not None:
                raise TooManyMatches(spent.from_address(retry), retry)
        limit = getattr(settings, spent.per_player)
        retry = limits.over(f"{spent.name}-by:{player}", limit, window)
        if retry is not None:
            raise TooManyMatches(spent.by_player(retry), retry)

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


def _lessons_from_address(retry: int) -> str:
    return ngettext(
        "Too many lessons were started from your network just now. Try again in %(seconds)d "
        "second, or sign in.",
        "Too many lessons were started from your network just now. Try again in %(seconds)d "
        "seconds, or sign in.",
        retry,
    ) % {"seconds": retry}


def _lessons_by_player(retry: int) -> str:
    return ngettext(
        "You have started the lesson too often just now. Try again in %(seconds)d second.",
        "You have started the lesson too often just now. Try again in %(seconds)d seconds.",
        retry,
    ) % {"seconds": retry}


BEA = Budget(
    "bea-matches",
    "BEA_MATCH_LIMIT_PER_PLAYER",
    "BEA_MATCH_LIMIT_PER_ADDRESS",
    "BEA_MATCH_LIMIT_WINDOW",
    _from_address,
    _by_player,
)
LESSONS = Budget(
    "lessons",
    "LESSON_LIMIT_PER_BROWSER",
    "LESSON_LIMIT_PER_ADDRESS",
    "LESSON_LIMIT_WINDOW",
    _lessons_from_address,
    _lessons_by_player,
)
