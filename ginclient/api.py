"""The API over urllib: JSON in and out, errors as ``ApiError``, the NDJSON event stream.

Every POST carries a fresh ``Idempotency-Key``, reused when the same POST is retried after a
network error, a 429 or a 503 (the server too busy), so a retried move is never applied twice.
"""

from __future__ import annotations

import json
import secrets
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import Callable, Iterator
from typing import Any

# The server sends a keep-alive line every 10 s; three missed ones mean the stream is dead.
STREAM_TIMEOUT = 35.0
MAX_WAIT = 60.0
# Answers that say "nothing was done, send it again after Retry-After" (docs/api.md): too many
# requests, and a server too busy to find a database connection (or none up behind a proxy).
WAIT_AND_RETRY = frozenset({429, 503})
# Answers of a proxy, not of the site: 502 Bad Gateway, 504 Gateway Timeout.
GATEWAY = (502, 504)


# The older fair scheme, where a seat's first move of a hand carries the seed that cuts the stock.
CUT_SCHEME = "sha256-fisher-yates-1"


def move_body(view: dict[str, Any], action: dict[str, Any]) -> dict[str, Any]:
    """The body of ``POST /matches/{id}/actions`` for ``action`` on ``view``. A ``seed`` action
    (the hand waits for our seed) gets a fresh random seed of ours, made here, never the
    server's (docs/fairness.md); in a match of the older scheme, so does our first move of a
    hand (it cuts the stock)."""
    action = dict(action)
    body: dict[str, Any] = {"action": action, "version": view["version"]}
    if action.get("type") == "seed":
        action.setdefault("seed", secrets.token_urlsafe(16))
        return body
    shuffle = view.get("shuffle") or {}
    seat = view.get("seat")
    if shuffle.get("scheme") == CUT_SCHEME and seat in (0, 1) and not shuffle["seeded"][seat]:
        body["seed"] = secrets.token_urlsafe(16)
    return body


def only_seed(legal: list[dict[str, Any]]) -> bool:
    """Is all there is to do now sending our seed for the deal? (ginclient does it itself.)"""
    return [a.get("type") for a in legal] == ["seed"]


class ApiError(Exception):
    """A refusal from the server (``status`` and its stable ``code``), or ``status`` 0 when the
    server could not be reached at all."""

    def __init__(self, status: int, code: str, message: str):
        super().__init__(f"{message} ({status} {code})" if status else message)
        self.status, self.code, self.message = status, code, message


class Client:
    def __init__(
        self,
        server: str,
        token: str,
        *,
        timeout: float = 30.0,
        retries: int = 3,
        renew: Callable[[], str] | None = None,
    ):
        self.base = server.rstrip("/") + "/api/v1"
        self.token = token
        self.timeout = timeout
        self.retries = retries
        # Signed in with ``login``: an expired access token is renewed once and the request
        # sent again (``ginclient.login.renew``).
        self.renew = renew

    def _renewed(self, error: ApiError) -> bool:
        """After a 401 for an expired token: a fresh one, if this client can get it."""
        if error.status != 401 or self.renew is None:
            return False
        self.token = self.renew()
        return True

    # --- Plain requests -------------------------------------------------------------------

    def get(self, path: str, **params: Any) -> Any:
        query = {k: v for k, v in params.items() if v is not None}
        if query:
            path += "?" + urllib.parse.urlencode(query)
        return self.request("GET", path)

    def post(self, path: str, body: Any = None) -> Any:
        return self.request("POST", path, body, idempotency_key=uuid.uuid4().hex)

    def _open(self, method: str, path: str, data: bytes | None, key: str | None, timeout: float):
        headers = {
            "Authorization": f"Bearer {self.token}",
            "Accept": "application/json",
            "User-Agent": "ginclient/1",
        }
        if data is not None:
            headers["Content-Type"] = "application/json"
        if key is not None:
            headers["Idempotency-Key"] = key
        request = urllib.request.Request(self.base + path, data, headers, method=method)
        return urllib.request.urlopen(request, timeout=timeout)

    def request(
        self, method: str, path: str, body: Any = None, *, idempotency_key: str | None = None
    ) -> Any:
        data = None if body is None and method == "GET" else json.dumps(body or {}).encode()
        renewed = False
        for attempt in range(self.retries + 2):
            try:
                with self._open(method, path, data, idempotency_key, self.timeout) as response:
                    raw = response.read()
                    return json.loads(raw) if raw else None
            except urllib.error.HTTPError as refused:
                error = _error_of(refused)
                if error.status in WAIT_AND_RETRY and attempt < self.retries:
                    time.sleep(_retry_after(refused))
                    continue
                # A proxy in front of the site found no server to answer (a restart, docs/deploy.md)
                # or lost the answer: the same key makes a retried move apply once.
                if error.status in GATEWAY and attempt < self.retries:
                    time.sleep(min(2**attempt, 10))
                    continue
                if not renewed and self._renewed(error):
                    renewed = True
                    continue
                raise error from None
            except (urllib.error.URLError, TimeoutError, ConnectionError) as gone:
                if attempt < self.retries:
                    time.sleep(min(2**attempt, 10))
                    continue
                reason = getattr(gone, "reason", gone)
                raise ApiError(0, "unreachable", f"Cannot reach {self.base}: {reason}") from None
        raise AssertionError("unreachable")

    # --- The event stream -----------------------------------------------------------------

    def stream(self, since: int | None = None) -> Iterator[dict[str, Any]]:
        """The player's events, for ever: reconnects after a dropped connection and resumes
        after the last event seen, so nothing is missed or repeated."""
        last = since
        failures = 0
        while True:
            path = "/events/stream" + (f"?since={last}" if last is not None else "")
            try:
                with self._open("GET", path, None, None, STREAM_TIMEOUT) as response:
                    failures = 0
                    for raw in response:
                        line = raw.strip()
                        if not line:
                            continue
                        item = json.loads(line)
                        if item.get("type") == "hello" and last is None:
                            last = item.get("since")
                        if "seq" in item:
                            last = item["seq"]
                        yield item
            except urllib.error.HTTPError as refused:
                error = _error_of(refused)
                if error.status == 401 and failures == 0 and self._renewed(error):
                    failures += 1
                    continue
                if error.status not in WAIT_AND_RETRY:
                    raise error from None
                time.sleep(_retry_after(refused))
            except (urllib.error.URLError, TimeoutError, ConnectionError, OSError) as gone:
                failures += 1
                if failures > self.retries:
                    reason = getattr(gone, "reason", gone)
                    raise ApiError(0, "unreachable", f"Lost the event stream: {reason}") from None
                time.sleep(min(2**failures, 10))


def _error_of(refused: urllib.error.HTTPError) -> ApiError:
    try:
        data = json.loads(refused.read() or b"{}")
    except ValueError:
        data = {}
    if not isinstance(data, dict):
        data = {}
    return ApiError(
        refused.code,
        str(data.get("code") or "error"),
        str(data.get("message") or refused.reason or "The server refused the request."),
    )


def _retry_after(refused: urllib.error.HTTPError) -> float:
    try:
        return min(MAX_WAIT, max(0.5, float(refused.headers.get("Retry-After", "1"))))
    except ValueError:
        return 1.0
