"""ginclient behind a proxy: an answer of the proxy (502, 503, 504, while the site restarts) is
tried again with the same Idempotency-Key, so the move is made once; the site's own refusals
are not tried again."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from ginclient import ApiError, Client


class Proxy(BaseHTTPRequestHandler):
    """Answers each POST with the next status of ``statuses`` (then 200), noting its key."""

    statuses: list[int] = []
    keys: list[str] = []

    def do_POST(self) -> None:  # noqa: N802
        self.rfile.read(int(self.headers["Content-Length"]))
        type(self).keys.append(self.headers["Idempotency-Key"])
        status = type(self).statuses.pop(0) if type(self).statuses else 200
        body = json.dumps({"code": "x", "message": "no"} if status >= 400 else {"ok": True})
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body.encode())

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def proxy(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setattr("ginclient.api.time.sleep", lambda seconds: None)
    Proxy.keys = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), Proxy)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def test_a_move_answered_by_the_proxy_is_sent_again_with_its_key(proxy: str) -> None:
    Proxy.statuses = [502, 503, 504]
    assert Client(proxy, "gin_t", retries=3).post("/matches/m/actions", {}) == {"ok": True}
    assert len(Proxy.keys) == 4
    assert len(set(Proxy.keys)) == 1


def test_it_gives_up_after_its_retries(proxy: str) -> None:
    Proxy.statuses = [502] * 5
    with pytest.raises(ApiError) as refused:
        Client(proxy, "gin_t", retries=2).post("/matches/m/actions", {})
    assert refused.value.status == 502
    assert len(Proxy.keys) == 3


def test_the_sites_own_refusal_is_not_tried_again(proxy: str) -> None:
    Proxy.statuses = [409]
    with pytest.raises(ApiError) as refused:
        Client(proxy, "gin_t", retries=3).post("/matches/m/actions", {})
    assert refused.value.status == 409
    assert len(Proxy.keys) == 1
