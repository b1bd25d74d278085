"""What the HTTP server answers by itself, before the application sees a request.

Daphne reads HTTP with Twisted's parser, which refused some requests on its own with a bare
``HTTP/1.1 400 Bad Request`` (no content type, no body) or by dropping the connection without
a word. Under ``/api/`` that broke the API's promise of a JSON ``{code, message}`` for every
refusal (docs/api.md), and a schemathesis run against daphne found it:

- A ``POST`` with a ``multipart/form-data`` body that is not valid multipart (no boundary, a
  broken part). Twisted parsed every form body into ``request.args``, which daphne never reads:
  it hands the raw body to Django, which parses bodies itself (the API answers 400
  ``malformed`` for any body that is not JSON; a page, its own 400). The parsing is turned off
  (``parsePOSTFormSubmission``, Twisted's switch for it): the request reaches Django as any
  other, and a large form body is no longer held twice in memory.
- A request that is not HTTP Twisted can read: a request line and headers over 16,384 bytes
  together (a single line over that dropped the connection with no answer at all), a header
  line that is not ``name: value``, a bad ``Content-Length``, more than 500 headers. The server
  still refuses these, but in the API's shape: 431 ``too_large`` or 400 ``malformed``, with a
  content type and a length, and closes the connection. Such a request never reaches Django,
  so the answer is the same for every path (a page can only be asked for this way by a broken
  client).

``install()`` is called by ``ginsite.asgi`` and changes Twisted's and daphne's classes for this
process; importing them installs no reactor. ``tests/api/test_server_refusals.py`` sends such
requests to a real daphne.
"""

from __future__ import annotations

import json
from typing import Any

from daphne.http_protocol import WebRequest
from twisted.web.http import HTTPChannel

_installed = False


def install() -> None:
    """For this process: daphne's requests leave form bodies to Django, and Twisted's own
    refusals (its ``_respondToBadRequestAndDisconnect`` and ``lineLengthExceeded``) answer
    in the API's shape. Twisted 26 and daphne 4.2; ``test_server_refusals.py`` holds them to it."""
    global _installed
    if _installed:
        return
    _installed = True
    _parse_no_forms()
    HTTPChannel._respondToBadRequestAndDisconnect = _refuse_unreadable  # type: ignore[method-assign,assignment]
    HTTPChannel.lineLengthExceeded = _refuse_long_line  # type: ignore[method-assign,assignment]


def _parse_no_forms() -> None:
    """Daphne's requests leave the body alone (Django reads it, as it arrived)."""
    original = WebRequest.__init__

    def __init__(self: WebRequest, *args: Any, **kwargs: Any) -> None:  # noqa: N807
        kwargs["parsePOSTFormSubmission"] = False
        original(self, *args, **kwargs)

    WebRequest.__init__ = __init__  # type: ignore[method-assign,assignment]


def _too_large(channel: HTTPChannel) -> None:
    _answer(
        channel,
        b"431 Request Header Fields Too Large",
        "too_large",
        f"The request line and headers are over {channel.totalHeadersSize:,} bytes together.",
    )


def _refuse_unreadable(self: HTTPChannel) -> None:
    if self._receivedHeaderSize > self.totalHeadersSize:
        _too_large(self)
    else:
        _answer(self, b"400 Bad Request", "malformed", "The request is not valid HTTP.")


def _refuse_long_line(self: HTTPChannel, line: bytes) -> None:
    _too_large(self)


def _answer(channel: HTTPChannel, status: bytes, code: str, message: str) -> None:
    body = json.dumps({"code": code, "message": message}).encode()
    head = (
        b"HTTP/1.1 %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n"
        b"Connection: close\r\n\r\n" % (status, len(body))
    )
    transport: Any = channel.transport
    transport.write(head + body)
    channel.loseConnection()
