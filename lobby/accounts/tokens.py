"""Personal API tokens: made and revoked in Settings, sent as ``Authorization: Bearer <token>``.

A token is 256 bits from ``secrets`` behind a recognisable ``gin_`` prefix (so a leaked one is
easy to spot in logs and by secret scanners). Only its SHA-256 digest is stored; a digest of a
high-entropy secret needs no slow password hash, and looking it up by digest reveals nothing
through timing about any stored token.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta
from typing import Any

from django.utils import timezone

from ginsite.lib.after_commit import credentials_ended
from ginsite.lib.apikit import check_auth_failures, note_auth_failure
from lobby import lookups
from lobby.models import ApiToken
from lobby.oauth import access as app_tokens

PREFIX = "gin_"
# The characters shown in Settings (and in the admin) to tell tokens apart: "gin_" and 8 more.
SHOWN = len(PREFIX) + 8
MAX_PER_USER = 20
# last_used_at is a hint for the owner, not an audit log: one write a minute is plenty.
TOUCH_EVERY = timedelta(minutes=1)


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def create(user: Any, name: str) -> tuple[ApiToken, str]:
    """A new token for ``user``: the stored row and the secret, which is never seen again."""
    secret = PREFIX + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(
        user=user, name=name.strip() or "API", prefix=secret[:SHOWN], digest=digest(secret)
    )
    return token, secret


def revoke(user: Any, token_id: int) -> bool:
    """Delete one of ``user``'s tokens; False when there is no such token of theirs."""
    deleted, _ = ApiToken.objects.filter(user=user, pk=token_id).delete()
    if deleted:
        # Streams opened with it must not go on serving the player's hand.
        credentials_ended(user.pk, token=token_id)
    return bool(deleted)


def revoke_all(user: Any) -> int:
    """Delete every token of ``user``; the number deleted. Their streams close."""
    deleted, _ = ApiToken.objects.filter(user=user).delete()
    if deleted:
        credentials_ended(user.pk, every=("token",))
    return int(deleted)


Found = ApiToken | app_tokens.AppToken


def authenticate(secret: str) -> Found | None:
    """The live token with this secret (its user active), or None: a personal token, or an
    app's access token (``lobby.oauth``, limited to its scopes: ``scopes_of``)."""
    if app_tokens.is_app_token(secret):
        return app_tokens.authenticate(secret)
    if not secret.startswith(PREFIX) or len(secret) > 200:
        return None
    token = lookups.token_with_account(digest(secret))
    if token is None:
        return None
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at > TOUCH_EVERY:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
    return token


def credential_of(found: Found) -> tuple[str, Any]:
    """What a socket or stream opened with this token is tied to (``ginsite.lib.after_commit``)."""
    if isinstance(found, app_tokens.AppToken):
        return found.credential
    return ("token", found.pk)


def scopes_of(found: Found) -> frozenset[str] | None:
    """The scopes an app's token was granted; None for a personal token, which may do all."""
    return found.scopes if isinstance(found, app_tokens.AppToken) else None


def authenticate_from(address: str | None, secret: str) -> Found | None:
    """``authenticate`` for a client at ``address``, which is refused (``ApiError`` 429)
    while it has sent too many invalid tokens lately; an invalid one counts against it."""
    check_auth_failures(address)
    token = authenticate(secret)
    if token is None:
        note_auth_failure(address)
    return token


def authenticate_request(request: Any, secret: str) -> Found | None:
    """``authenticate_from`` the request's address, once per request: the idempotency layer
    and the API's authentication both ask about the same token. Behind a proxy the address
    must be the client's (``ginsite.serving.proxy``), or every client shares the proxy's."""
    cached = getattr(request, "_gin_token", None)
    if cached is not None and cached[0] == secret:
        return cached[1]  # type: ignore[no-any-return]
    token = authenticate_from(request.META.get("REMOTE_ADDR"), secret)
    request._gin_token = (secret, token)
    return token


def bearer(header: str | None) -> str | None:
    """The token in an ``Authorization: Bearer <token>`` header, or None."""
    if not header:
        return None
    scheme, _, value = header.strip().partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        return None
    return value.strip()
