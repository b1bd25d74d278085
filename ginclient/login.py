"""``python -m ginclient login``: sign in through the site in a browser, as command-line tools
do (OAuth 2.0 authorization code with PKCE, a loopback redirect: RFC 8252), and keep the
tokens for later commands.

The client listens on 127.0.0.1 on a port the system picks, prints the site's consent page
address (and opens it in a browser when it can), and waits for the browser to come back with a
code. It exchanges the code, with the PKCE verifier only it knows, for an access token and a
refresh token, kept in ``~/.config/ginclient/tokens.json`` (readable by you only), one entry
per server. A later command uses the access token and renews it with the refresh token when
it has expired. The site registers the terminal client as the app ``ginclient``.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import http.server
import json
import os
import secrets
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import webbrowser
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ginclient.api import ApiError

CLIENT_ID = "ginclient"
SCOPES = "read play lobby"
WAIT_SECONDS = 300.0
# Renew a little before the server would refuse the token.
EARLY = 60


def store_path() -> Path:
    home = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(home) / "ginclient" / "tokens.json"


def _load() -> dict[str, Any]:
    try:
        data = json.loads(store_path().read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _save(server: str, tokens: dict[str, Any]) -> None:
    path = store_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    data = _load()
    data[server.rstrip("/")] = tokens
    # Written through a new file made readable by its owner only, then put in place.
    fresh = path.with_suffix(".tmp")
    fd = os.open(fresh, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as out:
        json.dump(data, out, indent=2)
    os.replace(fresh, path)


def _kept(answer: dict[str, Any]) -> dict[str, Any]:
    return {
        "access_token": answer["access_token"],
        "refresh_token": answer.get("refresh_token"),
        "scope": answer.get("scope", ""),
        "expires_at": int(time.time()) + int(answer.get("expires_in", 3600)),
    }


def _token_request(server: str, form: dict[str, str]) -> dict[str, Any]:
    data = urllib.parse.urlencode(form).encode()
    request = urllib.request.Request(
        server.rstrip("/") + "/oauth/token/",
        data,
        {"Accept": "application/json", "User-Agent": "ginclient/1"},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return json.loads(answer.read())  # type: ignore[no-any-return]
    except urllib.error.HTTPError as refused:
        try:
            body = json.loads(refused.read() or b"{}")
        except ValueError:
            body = {}
        code = str(body.get("error") or "error")
        message = str(body.get("error_description") or "The site refused the sign-in.")
        raise ApiError(refused.code, code, message) from None
    except (urllib.error.URLError, TimeoutError, ConnectionError) as gone:
        raise ApiError(0, "unreachable", f"Cannot reach {server}: {gone}") from None


def pkce() -> tuple[str, str]:
    """A verifier and its S256 challenge (RFC 7636)."""
    verifier = secrets.token_urlsafe(48)
    digest = hashlib.sha256(verifier.encode()).digest()
    return verifier, base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


class _Callback(http.server.BaseHTTPRequestHandler):
    """The loopback listener: takes the browser's one return, answers it with a short page."""

    received: dict[str, str]
    arrived: threading.Event

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        url = urllib.parse.urlsplit(self.path)
        if url.path != "/callback":
            self.send_error(404)
            return
        query = urllib.parse.parse_qs(url.query)
        self.server.received = {k: v[0] for k, v in query.items()}  # type: ignore[attr-defined]
        self.server.arrived.set()  # type: ignore[attr-defined]
        ok = "code" in query
        page = (
            "Signed in: you can close this window and go back to the terminal."
            if ok
            else "Not signed in: see the terminal."
        )
        body = f"<!doctype html><title>ginclient</title><p>{page}</p>".encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        return


def login(
    server: str,
    *,
    client_id: str = CLIENT_ID,
    scope: str = SCOPES,
    out: Callable[[str], None] = print,
    open_browser: Callable[[str], Any] | None = webbrowser.open,
    wait: float = WAIT_SECONDS,
) -> dict[str, Any]:
    """Sign in through the browser; the kept tokens. Raises ApiError when the player denies
    the app, the browser does not come back in time, or the site refuses the code."""
    listener = http.server.HTTPServer(("127.0.0.1", 0), _Callback)
    listener.received = {}  # type: ignore[attr-defined]
    listener.arrived = threading.Event()  # type: ignore[attr-defined]
    port = listener.server_address[1]
    redirect = f"http://127.0.0.1:{port}/callback"
    verifier, challenge = pkce()
    state = secrets.token_urlsafe(16)
    query = urllib.parse.urlencode(
        {
            "response_type": "code",
            "client_id": client_id,
            "redirect_uri": redirect,
            "scope": scope,
            "state": state,
            "code_challenge": challenge,
            "code_challenge_method": "S256",
        }
    )
    url = f"{server.rstrip('/')}/oauth/authorize/?{query}"
    thread = threading.Thread(target=listener.serve_forever, daemon=True)
    thread.start()
    try:
        out("Open this address in a browser to sign in (or sign up) and allow ginclient:")
        out(url)
        if open_browser is not None:
            # No browser here (a server, a container): the address is printed above.
            with contextlib.suppress(Exception):
                open_browser(url)
        if not listener.arrived.wait(wait):  # type: ignore[attr-defined]
            raise ApiError(0, "timeout", "The browser did not come back in time.")
        received: dict[str, str] = listener.received  # type: ignore[attr-defined]
    finally:
        listener.shutdown()
        listener.server_close()
    if received.get("state") != state:
        raise ApiError(0, "bad_state", "The browser came back with another sign-in's answer.")
    if "code" not in received:
        error = received.get("error", "access_denied")
        raise ApiError(0, error, "Not signed in: " + received.get("error_description", error))
    answer = _token_request(
        server,
        {
            "grant_type": "authorization_code",
            "code": received["code"],
            "redirect_uri": redirect,
            "client_id": client_id,
            "code_verifier": verifier,
        },
    )
    tokens = {**_kept(answer), "client_id": client_id}
    _save(server, tokens)
    return tokens


def stored(server: str) -> dict[str, Any] | None:
    """The tokens kept for ``server`` by an earlier ``login``, or None."""
    found = _load().get(server.rstrip("/"))
    return found if isinstance(found, dict) and found.get("access_token") else None


def renew(server: str) -> str:
    """A fresh access token from the kept refresh token (kept in turn); ApiError when there is
    none or the site refuses it (the app was revoked: ``login`` again)."""
    tokens = stored(server)
    if not tokens or not tokens.get("refresh_token"):
        raise ApiError(401, "invalid_token", "Not signed in: run `python -m ginclient login`.")
    try:
        answer = _token_request(
            server,
            {
                "grant_type": "refresh_token",
                "refresh_token": tokens["refresh_token"],
                "client_id": tokens.get("client_id", CLIENT_ID),
            },
        )
    except ApiError as refused:
        if refused.status in (400, 401):
            raise ApiError(
                401, "invalid_token", "Signed out (revoked?): run `python -m ginclient login`."
            ) from None
        raise
    fresh = {**_kept(answer), "client_id": tokens.get("client_id", CLIENT_ID)}
    _save(server, fresh)
    return str(fresh["access_token"])


def current(server: str) -> str | None:
    """The kept access token for ``server``, renewed first when it has (nearly) expired."""
    tokens = stored(server)
    if tokens is None:
        return None
    if int(tokens.get("expires_at", 0)) - EARLY <= time.time():
        return renew(server)
    return str(tokens["access_token"])
