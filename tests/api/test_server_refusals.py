"""What the real server answers to requests Django never sees or a client library never sends:
raw bytes on a socket to daphne serving ``ginsite.asgi`` (``tests/browser/live_asgi.py``:
the deployed application behind Twisted's HTTP parser, as ``daphne ginsite.asgi:application``
runs it). Every refusal under /api/ is JSON with a ``code`` and a ``message`` (docs/api.md).

Twisted used to answer some of these itself with a bare ``400 Bad Request`` (no content type,
no body) or by dropping the connection: a multipart body it could not parse, a header section
over its limit (``ginsite/serving/daphne_http.py``). The event stream also gets hostile cursors and
headers here, since schemathesis leaves it out (it never ends).
"""

from __future__ import annotations

import http.client
import json
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.browser.live_asgi import serve

from .conftest import token_for

pytestmark = pytest.mark.django_db(transaction=True)

STREAM = "/api/v1/events/stream"
LIMIT = 16_384  # Twisted's totalHeadersSize and line length


@pytest.fixture
def address() -> tuple[str, int]:
    parts = urlsplit(serve())
    return parts.hostname or "127.0.0.1", parts.port or 80


@pytest.fixture
def auth(alice: Any) -> bytes:
    return b"Authorization: Bearer " + token_for(alice).encode() + b"\r\n"


@contextmanager
def sent(address: tuple[str, int], raw: bytes) -> Iterator[http.client.HTTPResponse]:
    """The answer to ``raw``, sent as it is, its status line and headers read."""
    with socket.create_connection(address, timeout=10) as sock:
        sock.sendall(raw)
        answer = http.client.HTTPResponse(sock)
        answer.begin()
        yield answer


def request(method: str, path: str, *headers: bytes, body: bytes = b"") -> bytes:
    length = b"Content-Length: %d\r\n" % len(body) if body else b""
    head = b"".join(headers)
    return b"%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\n%s%s\r\n%s" % (
        method.encode(),
        path.encode(),
        head,
        length,
        body,
    )


def api_error(answer: http.client.HTTPResponse, status: int, code: str) -> dict[str, Any]:
    """The answer is the API's JSON refusal, ``status`` and ``code``; its body."""
    body = answer.read()
    assert answer.status == status, body
    assert answer.getheader("Content-Type", "").startswith("application/json"), body
    error = json.loads(body)
    assert error["code"] == code, error
    assert isinstance(error["message"], str) and error["message"], error
    return dict(error)


# --- Form bodies: Django's to read, not Twisted's -------------------------------------------------


@pytest.mark.parametrize(
    "content_type",
    [
        b"multipart/form-data",  # no boundary: the schemathesis run's finding
        b"multipart/form-data; boundary=xyz",  # a boundary, but no part
        b"application/x-www-form-urlencoded",
    ],
)
def test_a_form_body_under_api_gets_the_apis_json_400(address, auth, content_type):
    raw = request(
        "POST", "/api/v1/seeks", auth, b"Content-Type: " + content_type + b"\r\n", body=b"abc"
    )
    with sent(address, raw) as answer:
        error = api_error(answer, 400, "malformed")
    assert "JSON" in error["message"]


def test_a_broken_multipart_body_to_a_page_reaches_django(address):
    raw = request("POST", "/accounts/login/", b"Content-Type: multipart/form-data\r\n", body=b"abc")
    with sent(address, raw) as answer:
        assert answer.status in (400, 403)  # Django's own page (the CSRF check, or the parse)
        assert answer.getheader("Content-Type", "").startswith("text/html")
        assert answer.read()


# --- Requests Twisted cannot read -----------------------------------------------------------------


def test_headers_over_the_limit_get_a_json_431(address, auth):
    many = b"".join(b"X-Filler-%d: %s\r\n" % (n, b"x" * 100) for n in range(200))
    with sent(address, request("GET", STREAM, auth, many)) as answer:
        error = api_error(answer, 431, "too_large")
    assert f"{LIMIT:,}" in error["message"]


def test_one_header_line_over_the_limit_gets_a_json_431_not_a_dropped_connection(address, auth):
    huge = b"Last-Event-ID: " + b"9" * (LIMIT + 100) + b"\r\n"
    with sent(address, request("GET", STREAM, auth, huge)) as answer:
        api_error(answer, 431, "too_large")


@pytest.mark.parametrize(
    "header",
    [
        b"No colon here\r\n",
        b"Content-Length: abc\r\n",
        b"Bad Name: x\r\n",
        b"".join(b"X-%d: x\r\n" % n for n in range(501)),  # more headers than Twisted takes
    ],
)
def test_headers_twisted_cannot_read_get_a_json_400(address, header):
    with sent(address, request("GET", "/api/v1/me", header)) as answer:
        api_error(answer, 400, "malformed")


# --- The event stream, hostile --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "where"),
    [
        ("since=-1", "since"),
        ("since=abc", "since"),
        ("since=1.5", "since"),
        ("since=", "since"),
        ("since=" + "9" * 10_000, "since"),  # a huge cursor (the headers stay under the limit)
        ("since=0x10", "since"),
        ("presence=maybe", "presence"),
    ],
)
def test_the_stream_refuses_a_bad_cursor_with_json(address, auth, query, where):
    with sent(address, request("GET", f"{STREAM}?{query}", auth)) as answer:
        error = api_error(answer, 400, "malformed")
    assert error["errors"][0]["loc"] == ["query", where], error


def test_the_stream_refuses_a_nul_in_the_cursor(address, auth):
    with sent(address, request("GET", f"{STREAM}?since=%00", auth)) as answer:
        api_error(answer, 400, "malformed")


@pytest.mark.parametrize(
    "header",
    [
        b"Authorization: Bearer " + b"gin_" + b"x" * 12_000 + b"\r\n",  # huge, under the limit
        b"Authorization: Bearer gin_\xff\xfe\r\n",  # not ASCII
        b"Authorization: Basic YWxpY2U6eA==\r\n",
    ],
)
def test_the_stream_refuses_a_bad_token_with_json(address, header):
    with sent(address, request("GET", STREAM, header)) as answer:
        api_error(answer, 401, "unauthorized" if b"Basic" in header else "invalid_token")


@pytest.mark.parametrize(
    "last_event_id",
    [b"-1", b"abc", b"9" * 12_000, b"\xff\xfe", b"1; DROP TABLE"],
)
def test_the_stream_ignores_last_event_id_and_starts_from_now(address, auth, last_event_id):
    # NDJSON, not server-sent events: the cursor is ``since``; Last-Event-ID means nothing.
    header = b"Last-Event-ID: " + last_event_id + b"\r\n"
    with sent(address, request("GET", STREAM, auth, header)) as answer:
        assert answer.status == 200
        assert answer.getheader("Content-Type") == "application/x-ndjson"
        hello = json.loads(answer.readline())
    assert hello["type"] == "hello"
    assert hello["since"] == hello["last_seq"]


def test_the_stream_has_only_get(address, auth):
    with sent(address, request("POST", STREAM, auth, body=b"{}")) as answer:
        error = api_error(answer, 405, "method_not_allowed")
    assert error["message"]
