"""What every part of the JSON API shares: authentication, rate limits and the error shape.

Apart from ``ginsite.api`` (the NinjaAPI itself), so that the routers in ``lobby.api`` and
``games.api`` can import it without importing the API that mounts them.
"""

from __future__ import annotations

import math
import time
from typing import Annotated, Any, Literal

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, JsonResponse
from ninja import Schema
from ninja.security import APIKeyCookie, HttpBearer
from ninja.utils import check_csrf
from pydantic import BeforeValidator, model_validator

from lobby import tokens

# Every status an operation may answer with besides its success; documented on each, so a
# client (and schemathesis) knows the error shape of each.
ERRORS = frozenset({400, 401, 403, 404, 409, 422, 429})


# The rules a match may be played by, spelled out so the schema says so (tests/api check these
# against games.engine.PRESETS and games.services.TARGETS).
def _whole(value: Any) -> Any:
    """JSON has one number type: 100.0 is the integer 100 (as JSON Schema says); 100.5, "100"
    and true are not."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


WholeNumber = Annotated[int, BeforeValidator(_whole)]
Preset = Literal["standard", "classic", "simple"]
Target = Annotated[Literal[50, 100, 150, 250], BeforeValidator(_whole)]
SAFE_METHODS = ("GET", "HEAD", "OPTIONS", "TRACE")

CODES_BY_STATUS = {
    400: "malformed",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    422: "unprocessable",
    429: "rate_limited",
}


class Error(Schema):
    """Every refusal: ``code`` is stable (match on it), ``message`` is for people."""

    code: str
    message: str
    errors: list[dict[str, Any]] | None = None


class ApiError(Exception):
    """A refusal raised by the API layer itself (not by a service)."""

    def __init__(self, status: int, code: str, message: str, **headers: str):
        super().__init__(message)
        self.status, self.code, self.message, self.headers = status, code, message, headers


def error_response(
    status: int, code: str, message: str, errors: list[dict[str, Any]] | None = None
) -> JsonResponse:
    body: dict[str, Any] = {"code": code, "message": message}
    if errors is not None:
        body["errors"] = errors
    return JsonResponse(body, status=status)


# --- Rate limits --------------------------------------------------------------------------------


def check_rate(ident: str) -> None:
    """Count one request of ``ident`` (a token or a signed-in player) in the current window of
    the shared cache; past the limit, 429 with the seconds until the window ends."""
    limit = settings.API_RATE_LIMIT
    window = settings.API_RATE_WINDOW
    now = time.time()
    bucket = int(now // window)
    key = f"api-rate:{ident}:{bucket}"
    cache.add(key, 0, timeout=window + 5)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, timeout=window + 5)
        count = 1
    if count > limit:
        retry = max(1, math.ceil((bucket + 1) * window - now))
        raise ApiError(
            429,
            "rate_limited",
            f"Too many requests: at most {limit} every {window} seconds. Retry in {retry} seconds.",
            **{"Retry-After": str(retry)},
        )


# --- Authentication -----------------------------------------------------------------------------


class TokenAuth(HttpBearer):
    """``Authorization: Bearer <token>``. A header with a token that is not (or no longer)
    valid is refused outright rather than falling back to the session."""

    def __call__(self, request: HttpRequest) -> Any:
        header = request.headers.get("Authorization")
        if header is None:
            return None
        secret = tokens.bearer(header)
        if secret is None:
            raise ApiError(401, "unauthorized", "Send the token as: Authorization: Bearer <token>.")
        return self.authenticate(request, secret)

    def authenticate(self, request: HttpRequest, token: str) -> Any:
        found = tokens.authenticate(token)
        if found is None:
            raise ApiError(
                401, "invalid_token", "That token is not valid (revoked, or never issued)."
            )
        check_rate(f"token:{found.pk}")
        return found.user


class SessionAuth(APIKeyCookie):
    """The browser's session; unsafe methods need Django's CSRF token, as forms do."""

    param_name = settings.SESSION_COOKIE_NAME

    def _get_key(self, request: HttpRequest) -> str | None:
        return request.COOKIES.get(self.param_name)

    def authenticate(self, request: HttpRequest, key: str | None) -> Any:
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated:
            return None
        if request.method not in SAFE_METHODS and check_csrf(request) is not None:
            raise ApiError(
                403,
                "csrf_failed",
                "Signed in by session: send the CSRF token (X-CSRFToken header). "
                "Programs should use a personal token instead.",
            )
        check_rate(f"user:{user.pk}")
        return user


def user_of(request: HttpRequest) -> Any:
    """The player making the request (authentication has already run)."""
    return request.auth  # type: ignore[attr-defined]


def not_found_view(request: HttpRequest, rest: str = "") -> HttpResponse:
    """Any other path under /api/: a JSON 404, never an HTML page."""
    return error_response(404, "not_found", "There is no such API endpoint.")


class Body(Schema):
    """A request body: a JSON object with only the fields it declares. (Without the first
    check ninja would read the defaults out of a list or a number, and accept it.)"""

    # Strict: no quiet conversions ("1" or true for a number, 0 for false).
    model_config = {"extra": "forbid", "strict": True}

    @model_validator(mode="before")
    @classmethod
    def _an_object(cls, data: Any) -> Any:
        # ninja hands the parsed JSON over wrapped in its DjangoGetter.
        if not isinstance(getattr(data, "_obj", data), dict):
            raise ValueError("The body must be a JSON object.")
        return data
