"""Fixtures for apps that sign players in: a registered app, and the flow as an app runs it
(PKCE, the consent page, the code exchange) through Django's test client."""

from __future__ import annotations

import base64
import hashlib
import secrets
from io import StringIO
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from django.core.management import call_command
from django.test import Client

REDIRECT = "http://127.0.0.1/callback"


def register(name: str = "Pocket Gin", redirect: str = REDIRECT, client_id: str = "") -> str:
    """The client id of a newly registered app, as the command prints it."""
    out = StringIO()
    fixed = ["--client-id", client_id] if client_id else []
    call_command("register_app", name, "--redirect-uri", redirect, *fixed, stdout=out)
    return out.getvalue().strip()


@pytest.fixture
def app_id(db) -> str:  # type: ignore[no-untyped-def]
    return register()


def pkce() -> tuple[str, str]:
    """A verifier and its S256 challenge (RFC 7636)."""
    verifier = secrets.token_urlsafe(48)
    digest = hashlib.sha256(verifier.encode()).digest()
    return verifier, base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def authorize_query(client_id: str, challenge: str, scope: str, redirect: str, **extra: str) -> str:
    return urlencode(
        {
            "response_type": "code",
            "client_id": client_id,
            "redirect_uri": redirect,
            "scope": scope,
            "state": "s-123",
            "code_challenge": challenge,
            "code_challenge_method": "S256",
            **extra,
        }
    )


def code_from(location: str) -> str:
    query = parse_qs(urlsplit(location).query)
    assert query["state"] == ["s-123"]
    return query["code"][0]


def allow(
    browser: Client, client_id: str, scope: str = "read play lobby", redirect: str = REDIRECT
) -> tuple[str, str]:
    """The player's browser allows the app: the code it brings back, and the app's verifier."""
    verifier, challenge = pkce()
    url = "/oauth/authorize/?" + authorize_query(client_id, challenge, scope, redirect)
    page = browser.get(url)
    assert page.status_code == 200, page.content
    fields = {
        "allow": "1",
        "redirect_uri": redirect,
        "scope": scope,
        "client_id": client_id,
        "state": "s-123",
        "response_type": "code",
        "code_challenge": challenge,
        "code_challenge_method": "S256",
    }
    allowed = browser.post(url, fields)
    assert allowed.status_code == 302, allowed.content
    return code_from(allowed["Location"]), verifier


def exchange(client_id: str, code: str, verifier: str, redirect: str = REDIRECT) -> Any:
    """The app trades the code for tokens: the token endpoint's answer."""
    return Client().post(
        "/oauth/token/",
        {
            "grant_type": "authorization_code",
            "code": code,
            "redirect_uri": redirect,
            "client_id": client_id,
            "code_verifier": verifier,
        },
    )


def grant(
    browser: Client, client_id: str, scope: str = "read play lobby", redirect: str = REDIRECT
) -> dict[str, Any]:
    """Alice's browser allows the app; the app exchanges the code: the token endpoint's JSON."""
    answer = exchange(client_id, *allow(browser, client_id, scope, redirect), redirect)
    assert answer.status_code == 200, answer.content
    return answer.json()  # type: ignore[no-any-return]


def issue(user: Any, client_id: str, scope: str) -> Any:
    """An access token of the app for ``user`` as the token endpoint would make it (for tests of
    what the token may do, not of how it is got): the row and its secret."""
    from datetime import timedelta

    from django.utils import timezone
    from oauth2_provider.models import AccessToken, Application

    from lobby.oauth.access import access_token

    secret = access_token()
    row = AccessToken.objects.create(
        user=user,
        application=Application.objects.get(client_id=client_id),
        token=secret,
        scope=scope,
        expires=timezone.now() + timedelta(hours=1),
    )
    return row, secret
