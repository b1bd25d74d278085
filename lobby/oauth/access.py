"""An app's access token as the API sees it, the tokens' form, and the apps a player let in.

Access tokens look like ``gina_...`` and refresh tokens like ``ginr_...`` (256 bits from
``secrets``), so a leaked one is as easy to spot as a personal ``gin_`` token and the API
knows by the prefix where to look. The toolkit keeps each token's SHA-256 checksum, indexed:
the lookup is by checksum, as personal tokens' is by digest.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models.signals import post_delete
from django.utils import timezone
from oauth2_provider.models import AccessToken, Application, Grant, RefreshToken

from ginsite.lib.after_commit import credentials_ended
from lobby.oauth import scopes as scope_names

ACCESS_PREFIX = "gina_"
REFRESH_PREFIX = "ginr_"
# What the API calls this kind of credential (``ginsite.lib.after_commit.credentials_ended``).
KIND = "oauth"


def access_token(request: Any = None) -> str:
    """The toolkit's ACCESS_TOKEN_GENERATOR."""
    return ACCESS_PREFIX + secrets.token_urlsafe(32)


def refresh_token(request: Any = None) -> str:
    """The toolkit's REFRESH_TOKEN_GENERATOR."""
    return REFRESH_PREFIX + secrets.token_urlsafe(32)


@dataclass(frozen=True)
class AppToken:
    """What ``lobby.accounts.tokens.authenticate`` finds for an app's access token: the player, the
    scopes the player granted, and the credential a stream opened with it is tied to."""

    pk: int
    user: Any
    application_id: int
    scopes: frozenset[str]

    @property
    def user_id(self) -> int:
        return int(self.user.pk)

    @property
    def credential(self) -> tuple[str, int]:
        return (KIND, self.pk)


def is_app_token(secret: str) -> bool:
    return secret.startswith(ACCESS_PREFIX)


def authenticate(secret: str) -> AppToken | None:
    """The live (unexpired) access token with this secret, its player active, or None."""
    if not is_app_token(secret) or len(secret) > 200:
        return None
    checksum = hashlib.sha256(secret.encode()).hexdigest()
    token = (
        AccessToken.objects.select_related("user")
        .filter(token_checksum=checksum, user__is_active=True)
        .first()
    )
    if token is None or token.is_expired() or token.application_id is None:
        return None
    return AppToken(token.pk, token.user, token.application_id, scope_names.parse(token.scope))


@dataclass(frozen=True)
class AuthorizedApp:
    """An app a player let in, as Settings lists it."""

    application: Application
    scopes: tuple[str, ...]
    since: datetime


def authorized(user: Any) -> list[AuthorizedApp]:
    """The apps that hold a live token of ``user``'s: an unexpired access token or a refresh
    token not yet revoked (the app can get a new access token with it)."""
    now = timezone.now()
    found: dict[int, tuple[Application, set[str], datetime]] = {}
    live_access = AccessToken.objects.filter(user=user, expires__gt=now, application__isnull=False)
    live_refresh = RefreshToken.objects.filter(user=user, revoked__isnull=True)
    for token in list(live_access.select_related("application")) + [
        r for r in live_refresh.select_related("application", "access_token")
    ]:
        scope = token.scope if isinstance(token, AccessToken) else _refresh_scope(token)
        app, granted, since = found.get(token.application_id, (token.application, set(), now))
        granted |= scope_names.parse(scope)
        found[token.application_id] = (app, granted, min(since, token.created))
    return [
        AuthorizedApp(app, tuple(s for s in scope_names.ALL if s in granted), since)
        for app, granted, since in sorted(found.values(), key=lambda f: f[2])
    ]


def _refresh_scope(token: RefreshToken) -> str:
    return token.access_token.scope if token.access_token is not None else ""


def revoke(user: Any, application_id: int) -> bool:
    """End every token and pending code ``user`` gave this app; False when it held none.
    Streams opened with its access tokens close (``_ended``)."""
    grants, _ = Grant.objects.filter(user=user, application_id=application_id).delete()
    refresh, _ = RefreshToken.objects.filter(user=user, application_id=application_id).delete()
    access, _ = AccessToken.objects.filter(user=user, application_id=application_id).delete()
    return bool(grants or refresh or access)


def revoke_all(user: Any) -> bool:
    """End every token and pending code ``user`` gave any app (signing out everywhere else);
    False when no app held one. Their streams close as ``revoke``'s do."""
    grants, _ = Grant.objects.filter(user=user).delete()
    refresh, _ = RefreshToken.objects.filter(user=user).delete()
    access, _ = AccessToken.objects.filter(user=user).delete()
    return bool(grants or refresh or access)


def _ended(sender: Any, instance: AccessToken, **kwargs: Any) -> None:
    # Revoked in Settings, by the app (/oauth/revoke_token/) or replaced by a refresh: the
    # sockets and streams opened with it close (4401), as a revoked personal token's do.
    if instance.user_id is not None:
        credentials_ended(instance.user_id, oauth=instance.pk)


def connect() -> None:
    post_delete.connect(_ended, sender=AccessToken, dispatch_uid="gin-oauth-token-ended")
