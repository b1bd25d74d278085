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
from functools import cache
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone

from ginsite import rows
from ginsite.apikit import check_auth_failures, note_auth_failure
from ginsite.pushes import credentials_ended
from lobby.models import ApiToken, Profile
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
    token = _with_account(digest(secret))
    if token is None:
        return None
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at > TOUCH_EVERY:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
    return token


@cache
def _lookup(vendor: str) -> tuple[str, rows.Columns, rows.Columns, rows.Columns]:
    token, user, profile = (
        rows.Columns(ApiToken, "t"),
        rows.Columns(get_user_model(), "u"),
        rows.Columns(Profile, "p"),
    )
    sql = (
        f"SELECT {token.sql}, {user.sql}, {profile.sql} FROM {token.table}"
        f" JOIN {user.table} ON {user.column('id')} = {token.column('user')}"
        f" LEFT JOIN {profile.table} ON {profile.column('user')} = {user.column('id')}"
        f" WHERE {token.column('digest')} = %s AND {user.column('is_active')} = %s"
    )
    return sql, token, user, profile


def _with_account(token_digest: str) -> ApiToken | None:
    """``ApiToken.objects.select_related("user", "user__profile").filter(digest=...,
    user__is_active=True).first()``, the lookup of every API request, without the ORM's
    building (``ginsite.rows``)."""
    sql, token_cols, user_cols, profile_cols = _lookup(connection.vendor)
    row = rows.fetch_one(sql, [token_digest, True])
    if row is None:
        return None
    token, end = token_cols.take(row)
    user, end = user_cols.take(row, end)
    profile, _ = profile_cols.take(row, end)
    assert token is not None and user is not None
    rows.related(token, "user", user)
    rows.related(user, "profile", profile)
    return token  # type: ignore[return-value]


def credential_of(found: Found) -> tuple[str, Any]:
    """What a socket or stream opened with this token is tied to (``ginsite.pushes``)."""
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
    must be the client's (daphne's ``--proxy-headers``), or every client shares the proxy's."""
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
