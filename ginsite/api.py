"""The JSON API, version 1: one NinjaAPI mounted at /api/v1/, its docs at /api/docs.

Clients authenticate with a personal token (``Authorization: Bearer gin_...``, made in
Settings) or, in the browser, with the session (CSRF checked on unsafe methods). Each token (or
signed-in player) has a rate limit, counted in the shared cache. Every refusal is JSON with a
stable ``code`` and a readable ``message``; the routers in ``lobby.api`` and ``games.api`` only
call the services, so the API plays by exactly the rules the pages do.
"""

from __future__ import annotations

import math
import time
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from ninja import NinjaAPI, Schema
from ninja.errors import AuthenticationError, HttpError, ValidationError
from ninja.security import APIKeyCookie, HttpBearer
from ninja.utils import check_csrf

from games.services import MoveRefused
from lobby import services as lobby_services
from lobby import tokens

# Every status an operation may answer with besides its success; documented on each, so a
# client (and schemathesis) knows the error shape of each.
ERRORS = frozenset({400, 401, 403, 404, 409, 422, 429})
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


api = NinjaAPI(
    title="Gin Rummy API",
    version="1",
    description=(
        "The JSON API of the Gin Rummy site: the lobby, challenges, seeks, matches and each "
        "player's event stream. See docs/api.md for a guide."
    ),
    auth=[TokenAuth(), SessionAuth()],
    urls_namespace="api-v1",
    docs_url=None,
)


def user_of(request: HttpRequest) -> Any:
    """The player making the request (authentication has already run)."""
    return request.auth  # type: ignore[attr-defined]


# --- Refusals as JSON ---------------------------------------------------------------------------


@api.exception_handler(ApiError)
def _api_error(request: HttpRequest, exc: ApiError) -> HttpResponse:
    response = error_response(exc.status, exc.code, exc.message)
    for name, value in exc.headers.items():
        response[name] = value
    if exc.status == 401:
        response["WWW-Authenticate"] = "Bearer"
    return response


@api.exception_handler(MoveRefused)
def _move_refused(request: HttpRequest, exc: MoveRefused) -> HttpResponse:
    # 400 refused (no version sent...), 403 not_your_match, 409 stale_version / match_closed,
    # 422 illegal_move with the engine's reason: the door's own statuses and codes.
    code = exc.code if exc.code != "refused" else "invalid_request"
    return error_response(exc.status, code, exc.message)


@api.exception_handler(lobby_services.Refused)
def _lobby_refused(request: HttpRequest, exc: lobby_services.Refused) -> HttpResponse:
    codes = {400: "invalid_request", 403: "not_allowed", 409: "conflict"}
    return error_response(exc.status, codes.get(exc.status, "refused"), exc.message)


@api.exception_handler(ValidationError)
def _malformed(request: HttpRequest, exc: ValidationError) -> HttpResponse:
    # The request's shape is wrong (a missing field, a string for a number): 400, with where.
    errors = []
    for e in exc.errors:
        loc = list(e.get("loc", ()))
        if len(loc) > 1 and loc[0] == "body" and loc[1] == "body":
            del loc[1]  # ninja names the source, then our parameter (also "body")
        errors.append({"loc": loc, "msg": str(e.get("msg", "")), "type": str(e.get("type", ""))})
    where = ", ".join(".".join(str(p) for p in e["loc"]) for e in errors[:5])
    return error_response(400, "malformed", f"The request is malformed ({where}).", errors)


@api.exception_handler(AuthenticationError)
def _unauthorized(request: HttpRequest, exc: AuthenticationError) -> HttpResponse:
    response = error_response(
        401,
        "unauthorized",
        "Sign in: send a personal API token as Authorization: Bearer <token> "
        "(make one in Settings).",
    )
    response["WWW-Authenticate"] = "Bearer"
    return response


@api.exception_handler(Http404)
def _not_found(request: HttpRequest, exc: Http404) -> HttpResponse:
    message = str(exc) if exc.args and isinstance(exc.args[0], str) else "Not found."
    return error_response(404, "not_found", message)


@api.exception_handler(HttpError)
def _http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
    status = exc.status_code
    message = exc.message
    if status == 400:
        message = "The request body is not valid JSON."
    return error_response(status, CODES_BY_STATUS.get(status, "error"), message)


def not_found_view(request: HttpRequest, rest: str = "") -> HttpResponse:
    """Any other path under /api/: a JSON 404, never an HTML page."""
    return error_response(404, "not_found", "There is no such API endpoint.")


# Routers last: they import the names above.
from games.api import router as games_router  # noqa: E402
from lobby.api import router as lobby_router  # noqa: E402

api.add_router("", lobby_router)
api.add_router("", games_router)
