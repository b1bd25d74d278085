"""Behind nginx a request's client is the address nginx forwarded for, and only nginx may say
so: a client reaching a worker directly cannot pick the address its limits count against
(sign-ups, login failures, invalid tokens), nor claim it came over HTTPS."""

from __future__ import annotations

import asyncio
import ipaddress
from typing import Any

import pytest
from django.core.exceptions import ImproperlyConfigured

from ginsite.serving.proxy import TrustedProxy
from tests.envsettings import load_settings

PROXY = [ipaddress.ip_network("127.0.0.1/32"), ipaddress.ip_network("::1/128")]


def seen(
    client: str, headers: dict[str, str], kind: str = "http", proxies: list[Any] = PROXY
) -> dict[str, Any]:
    """The scope the site sees of a request from ``client`` with ``headers``."""
    got: dict[str, Any] = {}

    async def app(scope: Any, receive: Any, send: Any) -> None:
        got.update(scope)

    scope = {
        "type": kind,
        "client": [client, 40000],
        "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()],
    }
    asyncio.run(TrustedProxy(app, proxies)(scope, None, None))
    return got


def header(scope: dict[str, Any], name: bytes) -> str | None:
    return next((v.decode() for k, v in scope["headers"] if k == name), None)


@pytest.mark.parametrize("kind", ["http", "websocket"])
def test_it_takes_the_client_from_the_proxys_header(kind: str) -> None:
    scope = seen("127.0.0.1", {"X-Forwarded-For": "198.51.100.7"}, kind)
    assert scope["client"][0] == "198.51.100.7"


def test_it_believes_only_the_address_the_proxy_appended() -> None:
    # The client wrote 203.0.113.9 itself; nginx appended the address it really came from.
    scope = seen("127.0.0.1", {"X-Forwarded-For": "203.0.113.9, 198.51.100.7"})
    assert scope["client"][0] == "198.51.100.7"


@pytest.mark.parametrize("kind", ["http", "websocket"])
def test_it_ignores_the_headers_from_anyone_else(kind: str) -> None:
    headers = {"X-Forwarded-For": "203.0.113.9", "X-Forwarded-Proto": "https", "Host": "x"}
    scope = seen("198.51.100.20", headers, kind)
    assert scope["client"][0] == "198.51.100.20"
    assert header(scope, b"x-forwarded-for") is None
    assert header(scope, b"x-forwarded-proto") is None
    assert header(scope, b"host") == "x"


def test_it_keeps_the_proxys_address_when_the_header_is_not_an_address() -> None:
    scope = seen("127.0.0.1", {"X-Forwarded-For": "unknown"})
    assert scope["client"][0] == "127.0.0.1"


def test_without_proxies_configured_the_address_is_the_peers_and_headers_pass() -> None:
    # As before TRUSTED_PROXIES: a site behind its own proxy with SECURE_PROXY_SSL_HEADER set.
    headers = {"X-Forwarded-For": "203.0.113.9", "X-Forwarded-Proto": "https"}
    scope = seen("127.0.0.1", headers, proxies=[])
    assert scope["client"][0] == "127.0.0.1"
    assert header(scope, b"x-forwarded-proto") == "https"


def test_the_proxies_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    assert load_settings(monkeypatch)["TRUSTED_PROXIES"] == []
    proxies = load_settings(monkeypatch, TRUSTED_PROXIES="127.0.0.1, 10.0.0.0/8")
    assert proxies["TRUSTED_PROXIES"] == [
        ipaddress.ip_network("127.0.0.1/32"),
        ipaddress.ip_network("10.0.0.0/8"),
    ]


def test_a_bad_proxy_address_stops_the_site(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ImproperlyConfigured, match="TRUSTED_PROXIES"):
        load_settings(monkeypatch, TRUSTED_PROXIES="nginx.local")
