"""HTTPS from the environment: HSTS, the redirect to HTTPS, Secure cookies and the TLS proxy's
header. With the production variables set, ``manage.py check --deploy`` has nothing to say."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.test import Client
from django.urls import reverse

from games import access
from games.models import PrivateTable
from tests.envsettings import NAMES, SETTINGS_FILE, load_settings

ROOT = SETTINGS_FILE.parents[1]

PRODUCTION = {
    "SECRET_KEY": secrets.token_urlsafe(50),
    "ALLOWED_HOSTS": "gin.example",
    "CSRF_TRUSTED_ORIGINS": "https://gin.example",
    "DATABASE_URL": "postgres://gin@db.internal:5432/gin",
    "REDIS_URL": "redis://cache.internal:6379/0",
    "SECURE_PROXY_SSL_HEADER": "X-Forwarded-Proto",
    "SECURE_SSL_REDIRECT": "1",
    "SECURE_HSTS_SECONDS": "31536000",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS": "1",
    "SECURE_HSTS_PRELOAD": "1",
    "SECURE_COOKIES": "1",
}


def _check_deploy(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in NAMES}
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env={**clean, **env, "DJANGO_SETTINGS_MODULE": "ginsite.settings"},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_check_deploy_has_no_warning_with_the_production_variables() -> None:
    result = _check_deploy(PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_check_deploy_warns_without_them() -> None:
    bare = {k: PRODUCTION[k] for k in ("SECRET_KEY", "ALLOWED_HOSTS")}
    result = _check_deploy(bare)
    assert result.returncode != 0
    for warning in ("W004", "W008", "W012", "W016"):
        assert f"security.{warning}" in result.stderr


def test_it_reads_the_https_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = load_settings(monkeypatch, **PRODUCTION)
    assert settings["SECURE_PROXY_SSL_HEADER"] == ("HTTP_X_FORWARDED_PROTO", "https")
    assert settings["SECURE_SSL_REDIRECT"] is True
    assert settings["SECURE_HSTS_SECONDS"] == 31536000
    assert settings["SECURE_HSTS_INCLUDE_SUBDOMAINS"] and settings["SECURE_HSTS_PRELOAD"]
    assert settings["SESSION_COOKIE_SECURE"] and settings["CSRF_COOKIE_SECURE"]
    assert settings["LANGUAGE_COOKIE_SECURE"]


def test_it_is_plain_http_when_nothing_is_set(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = load_settings(monkeypatch)
    assert settings["SECURE_PROXY_SSL_HEADER"] is None
    assert settings["SECURE_SSL_REDIRECT"] is False
    assert settings["SECURE_HSTS_SECONDS"] == 0
    assert settings["SESSION_COOKIE_SECURE"] is False


def test_it_reads_a_proxy_header_with_its_own_value(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = load_settings(monkeypatch, SECURE_PROXY_SSL_HEADER="X-Forwarded-Ssl=on")
    assert settings["SECURE_PROXY_SSL_HEADER"] == ("HTTP_X_FORWARDED_SSL", "on")
    with pytest.raises(ImproperlyConfigured, match="SECURE_PROXY_SSL_HEADER"):
        load_settings(monkeypatch, SECURE_PROXY_SSL_HEADER="X Forwarded Proto")


@pytest.mark.django_db
@pytest.mark.parametrize("proto", ["https", "http", None])
def test_the_seat_key_cookie_is_secure_and_host_only_behind_a_tls_proxy(
    monkeypatch: pytest.MonkeyPatch, settings, proto: str | None
) -> None:  # type: ignore[no-untyped-def]
    """Whatever one request says: a site behind a TLS proxy is served over HTTPS, and its key
    cookies are ``__Host-`` and Secure (tests/games/test_host_only_keys.py says why)."""
    from_env = load_settings(monkeypatch, SECURE_PROXY_SSL_HEADER="X-Forwarded-Proto")
    settings.SECURE_PROXY_SSL_HEADER = from_env["SECURE_PROXY_SSL_HEADER"]
    headers = {"X-Forwarded-Proto": proto} if proto else {}
    response = Client().post(
        reverse("games:private_new"),
        {"name": "Hal", "preset": "standard", "target": 100},
        headers=headers,
    )
    assert response.status_code == 302
    cookie = response.cookies["__Host-" + access.seat_cookie(PrivateTable.objects.get())]
    assert cookie["secure"] and cookie["httponly"]
