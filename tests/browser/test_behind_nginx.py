"""The site as an operator runs it (scripts/serve): nginx in front of two workers, with TLS, on
PostgreSQL and Redis. What a player or an app notices of the proxy: pages and static files over
HTTPS with the right caching, plain HTTP sent to HTTPS (but the balancer's /health/ answered),
the event stream line by line, and each client's own address counted for its limits, whatever
X-Forwarded-For it sends."""

from __future__ import annotations

import http.client
import json
import re
import time
import urllib.request
from collections.abc import Iterator

import pytest
from django.contrib.auth.models import User

from lobby.accounts import tokens
from tests.proxied import ProxiedSite, served_through_nginx

pytestmark = [pytest.mark.browser, pytest.mark.distributed, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def site(postgresql_only: None, redis_only: None) -> Iterator[ProxiedSite]:
    with served_through_nginx() as served:
        yield served


def _access_log_once_it_has(site: ProxiedSite, request: str, seconds: float = 10) -> str:
    """nginx's access log once it names ``request``: nginx writes a request's line after the
    client has its answer, so a loaded machine can read the log a moment before it is there."""
    log = site.run_dir / "nginx-access.log"
    deadline = time.monotonic() + seconds
    while request not in (text := log.read_text()) and time.monotonic() < deadline:
        time.sleep(0.05)
    return text


def fetch(site: ProxiedSite, path: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(site.base + path, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10, context=site.tls()) as answer:
            return answer.status, {k.lower(): v for k, v in answer.headers.items()}, answer.read()
    except urllib.error.HTTPError as refused:
        return refused.code, {k.lower(): v for k, v in refused.headers.items()}, refused.read()


def from_address(site: ProxiedSite, source: str, path: str, **headers: str) -> int:
    """A GET over HTTPS from the loopback address ``source`` (127.0.0.2, ...: another client
    than nginx's own 127.0.0.1, which the workers trust as the proxy)."""
    connection = http.client.HTTPSConnection(
        "localhost", site.https_port, timeout=10, context=site.tls(), source_address=(source, 0)
    )
    try:
        connection.request("GET", path, headers=headers)
        return connection.getresponse().status
    finally:
        connection.close()


@pytest.mark.timeout(300)
def test_an_operators_site_behind_nginx(site: ProxiedSite, alice: User, bob: User) -> None:
    # A page over HTTPS names its static files by their hashes; nginx serves those for a year.
    status, _, page = fetch(site, "/")
    assert status == 200
    script = re.search(rb'src="(/static/[^"]+\.[0-9a-f]{12}\.js)"', page)
    assert script, "the home page names no hashed script"
    status, headers, _ = fetch(site, script.group(1).decode(), **{"Accept-Encoding": "gzip"})
    assert status == 200
    assert headers["cache-control"] == "public, max-age=31536000, immutable"
    assert headers.get("content-encoding") == "gzip"
    # Plain HTTP: the balancer's probe is answered, a player is sent to HTTPS.
    with urllib.request.urlopen(site.plain + "/health/", timeout=10) as health:
        assert health.status == 200
    plain = http.client.HTTPConnection("localhost", int(site.env["GIN_HTTP_PORT"]), timeout=10)
    plain.request("GET", "/lobby/")
    moved = plain.getresponse()
    assert moved.status == 301
    assert moved.getheader("Location") == f"{site.base}/lobby/"
    plain.close()

    # The event stream through nginx: a challenge reaches bob's open stream as it happens.
    alice_token, bob_token = tokens.create(alice, "app")[1], tokens.create(bob, "app")[1]
    # (nginx 1.22 passed these lines on even with proxy_buffering on: what this checks is the
    # stream through the proxy, not that setting, which keeps a slow reader's lines from waiting.)
    stream = http.client.HTTPSConnection(
        "localhost", site.https_port, timeout=15, context=site.tls()
    )
    stream.request("GET", "/api/v1/events/stream", headers={"Authorization": f"Bearer {bob_token}"})
    lines = stream.getresponse()
    assert json.loads(lines.readline())["type"] == "hello"
    request = urllib.request.Request(
        site.base + "/api/v1/challenges",
        data=json.dumps({"to": "bob", "preset": "standard", "target": 100}).encode(),
        headers={"Authorization": f"Bearer {alice_token}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10, context=site.tls()) as sent:
        assert sent.status == 201
    kinds = [json.loads(lines.readline()).get("type") for _ in range(3)]
    assert "challenge" in kinds
    stream.close()

    # Invalid tokens are counted per client address: one client sending a new X-Forwarded-For
    # with each guess is still one address, and is stopped; another client is not.
    limit = 20  # API_AUTH_FAILURE_LIMIT
    answers = [
        from_address(
            site,
            "127.0.0.2",
            "/api/v1/me",
            Authorization=f"Bearer gin_guess{n}",
            **{"X-Forwarded-For": f"203.0.113.{n}"},
        )
        for n in range(limit + 1)
    ]
    assert answers[:limit] == [401] * limit
    assert answers[limit] == 429
    assert from_address(site, "127.0.0.3", "/api/v1/me", Authorization="Bearer gin_x") == 401

    # The logs name each request without its secrets: a password-reset link's key and an
    # invitation's token are starred and a query (an event socket's ?token=) left out, in
    # nginx's log and the workers' own lines alike; daphne's access log, which printed them
    # whole, is off.
    reset = "/accounts/password/reset/key/3-c1bf2e-0b9a7d41f3e2a5c6d8e9f0a1b2c3d4e5/"
    assert fetch(site, reset)[0] in (200, 302)
    assert fetch(site, "/api/v1/events/stream?token=gin_notatokenbutasecret")[0] == 401
    fetch(site, "/games/t/aTokenOfAnInvitation/")  # unknown: 404 (a real one is starred too)
    nginx_log = _access_log_once_it_has(site, '"GET /games/t/')
    assert "aTokenOfAnInvitation" not in nginx_log and '"GET /games/t/*/ HTTP' in nginx_log
    for log in (nginx_log, site.output()):
        assert "0b9a7d41f3e2a5c6d8e9f0a1b2c3d4e5" not in log
        assert "notatokenbutasecret" not in log
        assert "/accounts/password/reset/key/3-*/" in log
    assert re.search(r'"GET /api/v1/events/stream HTTP/[\d.]+" 401', nginx_log), nginx_log[-2000:]
