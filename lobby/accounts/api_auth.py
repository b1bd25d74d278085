"""How API clients sign in: a personal token (``lobby.accounts.tokens``), an app's access token
(``lobby.oauth``, within its scopes) or the browser's session.

The lobby owns accounts and their tokens; ``ginsite.api`` mounts these on the whole API.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest
from ninja.security import APIKeyCookie, HttpBearer
from ninja.utils import check_csrf

from ginsite.lib.apikit import ApiError, check_rate
from lobby.accounts import tokens
from lobby.oauth import scopes

SAFE_METHODS = ("GET", "HEAD", "OPTIONS", "TRACE")


class TokenAuth(HttpBearer):
    """``Authorization: Bearer <token>``. A header with a token that is not (or no longer)
    valid is refused outright rather than falling back to the session."""

    # In the published schema's security scheme: which tokens, and where an app gets one.
    openapi_description = (
        "A personal token (gin_..., made in Settings) or an app's OAuth 2.0 access token "
        "(gina_...): authorization code with PKCE (S256) at /oauth/authorize/, exchanged and "
        "refreshed at /oauth/token/, scopes read, play and lobby (docs/api.md, For app "
        "developers). A request beyond the token's scopes: 403 insufficient_scope."
    )

    def __call__(self, request: HttpRequest) -> Any:
        header = request.headers.get("Authorization")
        if header is None:
            return None
        secret = tokens.bearer(header)
        if secret is None:
            raise ApiError(401, "unauthorized", "Send the token as: Authorization: Bearer <token>.")
        return self.authenticate(request, secret)

    def authenticate(self, request: HttpRequest, token: str) -> Any:
        found = tokens.authenticate_request(request, token)
        if found is None:
            raise ApiError(
                401,
                "invalid_token",
                "That token is not valid (expired, revoked, or never issued). An app's access "
                "token lasts an hour: get a new one with its refresh token.",
                **{"WWW-Authenticate": 'Bearer error="invalid_token"'},
            )
        # Per player, not per token: all their tokens and their session share one limit.
        check_rate(found.user_id)
        granted = tokens.scopes_of(found)
        if granted is not None:
            needed = scopes.required(request.method or "GET", request.path)
            if needed not in granted:
                raise ApiError(
                    403,
                    "insufficient_scope",
                    f'This app was not granted the "{needed}" scope, which this request needs. '
                    "Ask the player to sign in again with it.",
                    **{"WWW-Authenticate": f'Bearer error="insufficient_scope", scope="{needed}"'},
                )
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
        check_rate(user.pk)
        return user
