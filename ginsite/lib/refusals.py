"""The one refusal of the site's services: a request turned away, with nothing changed.

``games.services`` (the match door) and ``lobby.services`` (the lobby's) raise ``Refused`` or
one of its kinds; each adapter turns it into its answer in one place: the JSON API in
``ginsite.api`` (``{"code", "message"}`` with the status), the lobby's pages in
``lobby.views._refused`` and the table's in ``games.web.responses.refusal``. Here, below
both apps, so that ``games`` can raise it without importing ``lobby``.
"""

from __future__ import annotations

from typing import Any


class Refused(Exception):  # noqa: N818 - reads better at call sites than RefusedError
    """A request a service will not carry out; nothing was changed.

    ``status`` is the HTTP status: 400 is a well-formed request the service turns down ("you
    cannot challenge yourself"), which the JSON API answers with 422 (its 400 means a request
    of the wrong shape). ``code`` is stable, for programs to match on; ``message`` is for
    people, already translated. ``headers`` go with the answer (``Retry-After``)."""

    status = 400
    code = "invalid_request"

    def __init_subclass__(
        cls, *, status: int | None = None, code: str | None = None, **kwargs: Any
    ) -> None:
        """A kind of refusal names its own: ``class Conflict(Refused, status=409, ...)``."""
        super().__init_subclass__(**kwargs)
        if status is not None:
            cls.status = status
        if code is not None:
            cls.code = code

    def __init__(self, message: str, **headers: str) -> None:
        super().__init__(message)
        self.message = message
        self.headers = headers


class NotAllowed(Refused, status=403, code="not_allowed"):
    """Not this player's to do (only the challenged player accepts a challenge)."""


class NotFound(Refused, status=404, code="not_found"):
    """What the request names does not exist, or is not this player's to see."""


class Conflict(Refused, status=409, code="conflict"):
    """Not now: something changed first (accepted, cancelled, a player sat down elsewhere)."""


class TooMany(Refused, status=429, code="rate_limited"):
    """Too many of something in a short while; ``retry_after`` is the seconds to wait."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message, **{"Retry-After": str(retry_after)})
        self.retry_after = retry_after
