"""One line per HTTP request on the ``ginsite.requests`` logger, for people to grep::

    user=alice match=Kq3vZ8 POST /games/Kq3vZ8/act 200 12ms
    user=- match=- GET /players/bob/ 404 3ms

Who (the signed-in player or the API token's owner, ``-`` for nobody), which match (from the
URL, ``-`` if none), the method, the path (percent-encoded, so a path cannot forge a line; the
query is left out, since it may hold a token, and so is the key of a verification or password
reset link and a private table's invitation token), the status and the milliseconds until the
answer began (a stream is logged when it starts). Websockets are not HTTP requests and are not
logged here. Load balancers' ``/health/`` probes are logged at DEBUG only.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from urllib.parse import quote

from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse

log = logging.getLogger("ginsite.requests")

# URL parameters that name a match: the pages' and the API's.
MATCH_KWARGS = ("public_id", "match_id")
QUIET_PREFIXES = ("/health/", "/static/")
# URL parameters that are secrets: the key of an e-mail verification link or a password reset
# link, and the token of a private table's invitation (whoever holds it may take an open seat;
# a results card's token too). Whoever reads the logs must not be able to open them, so the line
# shows ``*`` instead.
SECRET_KWARGS = ("key", "token")


def _user(request: HttpRequest) -> str:
    try:
        for who in (getattr(request, "auth", None), getattr(request, "user", None)):
            if who is not None and getattr(who, "is_authenticated", False):
                return str(who.get_username())
    except DatabaseError:  # the session could not be read: the line is logged all the same
        return "?"
    return "-"


def loggable_path(request: HttpRequest) -> str:
    """The request's path as a log line may show it: percent-encoded, secret keys starred."""
    path = request.path
    resolved = getattr(request, "resolver_match", None)
    kwargs = resolved.kwargs if resolved is not None else {}
    for name in SECRET_KWARGS:
        if kwargs.get(name):
            path = path.replace(str(kwargs[name]), "*")
    return quote(path, safe="/:@!$&'()*+,;=-._~")


def _match(request: HttpRequest) -> str:
    resolved = getattr(request, "resolver_match", None)
    kwargs = resolved.kwargs if resolved is not None else {}
    for name in MATCH_KWARGS:
        if kwargs.get(name):
            return quote(str(kwargs[name]), safe="")
    return "-"


class RequestLogMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        start = time.monotonic()
        response = self.get_response(request)
        elapsed = round((time.monotonic() - start) * 1000)
        quiet = request.path.startswith(QUIET_PREFIXES)
        log.log(
            logging.DEBUG if quiet else logging.INFO,
            "user=%s match=%s %s %s %d %dms",
            _user(request),
            _match(request),
            request.method,
            loggable_path(request),
            response.status_code,
            elapsed,
        )
        return response
