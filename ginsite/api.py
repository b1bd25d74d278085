"""The JSON API, version 1: one NinjaAPI mounted at /api/v1/, its docs at /api/docs.

Clients authenticate with a personal token (``Authorization: Bearer gin_...``, made in
Settings), an app's OAuth access token (``gina_...``, ``lobby.oauth``, within its scopes) or,
in the browser, with the session (CSRF checked on unsafe methods). Each player has
a rate limit (all their tokens and their session together), counted in the shared cache. Every
refusal is JSON with a stable ``code`` and a readable ``message`` (a service's ``Refused`` is
turned into one here, and only here); the routers in ``lobby.api.routes`` and ``games.api.matches``
only call the services, so the API plays by exactly the rules the pages do.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, ValidationError

from games.api.matches import router as games_router
from games.api.quick_messages import router as messages_router
from games.review.api import router as review_router
from ginsite.lib.apikit import (
    CODES_BY_STATUS,
    ApiError,
    ApiRenderer,
    Refusal,
    error_response,
    malformed,
    not_found_view,
    refusal,
)
from ginsite.lib.refusals import Refused
from lobby.accounts.api_auth import SessionAuth, TokenAuth
from lobby.api.routes import router as lobby_router
from lobby.arena.api import router as arena_router
from lobby.moderation.api import router as moderation_router
from lobby.people.api import router as players_router
from lobby.pool.api import router as pool_router
from lobby.ratings.api import router as ratings_router
from lobby.webpush.api import router as push_router

__all__ = ["api", "not_found_view"]

api = NinjaAPI(
    title="Gin Rummy API",
    version="1",
    description=(
        "The JSON API of the Gin Rummy site: the lobby, challenges, seeks, matches and each "
        "player's event stream. Sign in with a personal token (Settings) or, for an app, an "
        "OAuth 2.0 access token (authorization code with PKCE at /oauth/authorize/ and "
        "/oauth/token/; scopes read, play, lobby). See docs/api.md for a guide."
    ),
    auth=[TokenAuth(), SessionAuth()],
    urls_namespace="api-v1",
    docs_url=None,
    # One form for every time in every answer (``apikit.api_time``).
    renderer=ApiRenderer(),
)


# --- Refusals as JSON ---------------------------------------------------------------------------


def _answer(refused: Refusal) -> HttpResponse:
    response = JsonResponse(refused.body, status=refused.status)
    for name, value in refused.headers.items():
        response[name] = value
    if refused.status == 401 and "WWW-Authenticate" not in refused.headers:
        response["WWW-Authenticate"] = "Bearer"
    return response


@api.exception_handler(ApiError)
def _api_error(request: HttpRequest, exc: ApiError) -> HttpResponse:
    return _answer(refusal(exc))


@api.exception_handler(Refused)
def _refused(request: HttpRequest, exc: Refused) -> HttpResponse:
    # The services' one refusal, with its own status and code (403 not_allowed, 409
    # stale_version, 422 illegal_move with the engine's reason, ...).
    return _answer(refusal(exc))


@api.exception_handler(ValidationError)
def _malformed(request: HttpRequest, exc: ValidationError) -> HttpResponse:
    # The request's shape is wrong (a missing field, a string for a number): 400, with where.
    errors = []
    for e in exc.errors:
        loc = list(e.get("loc", ()))
        if len(loc) > 1 and loc[0] == "body" and loc[1] == "body":
            del loc[1]  # ninja names the source, then our parameter (also "body")
        errors.append({**e, "loc": loc})
    return _answer(malformed(errors))


@api.exception_handler(AuthenticationError)
def _unauthorized(request: HttpRequest, exc: AuthenticationError) -> HttpResponse:
    response = error_response(
        401,
        "unauthorized",
        "Sign in: send a token as Authorization: Bearer <token>, a personal API token "
        "(make one in Settings) or an app's access token (docs/api.md, For app developers).",
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


api.add_router("", lobby_router)
api.add_router("", players_router)
api.add_router("", games_router)
api.add_router("", push_router)
api.add_router("", messages_router)
api.add_router("", review_router)
api.add_router("", ratings_router)
api.add_router("", pool_router)
api.add_router("", moderation_router)
api.add_router("", arena_router)
