"""ginclient does what docs/api.md asks of a client when the server is too busy to find a
database connection (503 with Retry-After: nothing was done): it waits and sends the request
again, with the same Idempotency-Key, and its event stream connects again instead of ending
(a bot that gave up there stopped playing its arena: bench.arena at 300 bots)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from ginclient import ApiError, Client


class Busy(BaseHTTPRequestHandler):
    """Answers 503 to each path's first ``busy`` requests, then the real answer."""

    busy = 1
    seen: list[tuple[str, str | None]] = []

    def _answer(self) -> None:
        Busy.seen.append((self.path, self.headers.get("Idempotency-Key")))
        if sum(1 for path, _key in Busy.seen if path == self.path) <= Busy.busy:
            body = json.dumps({"code": "unavailable", "message": "busy"}).encode()
            self.send_response(503)
            self.send_header("Retry-After", "0")
        elif self.path.startswith("/api/v1/events/stream"):
            body = b'{"type": "hello", "since": 7}\n'
            self.send_response(200)
        else:
            body = b'{"ok": true}'
            self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = _answer

    def log_message(self, *args: object) -> None:
        """Quiet."""


@pytest.fixture
def busy_server() -> Iterator[str]:
    Busy.seen = []
    Busy.busy = 1
    server = ThreadingHTTPServer(("127.0.0.1", 0), Busy)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def test_a_busy_answer_is_sent_again_with_the_same_key(busy_server: str) -> None:
    client = Client(busy_server, "token")
    assert client.post("/matches/x/actions", {"type": "pass"}) == {"ok": True}
    [(path, first), (again, second)] = Busy.seen
    assert path == again == "/api/v1/matches/x/actions"
    assert first is not None and first == second


def test_the_event_stream_connects_again_after_a_busy_answer(busy_server: str) -> None:
    stream = Client(busy_server, "token").stream()
    assert next(stream) == {"type": "hello", "since": 7}
    assert [path for path, _key in Busy.seen] == ["/api/v1/events/stream"] * 2


def test_a_server_busy_for_too_long_is_an_error(busy_server: str) -> None:
    Busy.busy = 100
    client = Client(busy_server, "token", retries=2)
    with pytest.raises(ApiError) as refused:
        client.request("GET", "/me")
    assert refused.value.status == 503
    assert len(Busy.seen) == 3  # the first try and two more
