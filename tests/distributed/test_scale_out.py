"""Scale-out: two real daphne processes on two ports, one PostgreSQL database, one Redis.

Alice uses server A, Bob server B, each signed in through the real login form. They meet in
one lobby (Bob sees Alice's challenge pushed on his lobby socket on B and accepts it over HTTP
on B), then play moves over HTTP on their own server, and each sees the other's moves pushed
on their match socket: the group message crosses processes through Redis, and every process
renders from the shared database.
"""

from __future__ import annotations

import json
import os
import random
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from http.cookiejar import CookieJar
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from django.conf import settings
from django.db import connection

from bench.harness.processes import dying_with_parent
from games import access
from games.engine import legal_actions, player_view
from games.models import Match
from games.state_cache import load_state
from tests.games.live_helpers import shown_cards

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from websockets.sync.client import ClientConnection

pytestmark = [pytest.mark.distributed, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
_MISSING = [name for name in ("DATABASE_URL", "REDIS_URL") if not os.environ.get(name)]
_REQUIRED = os.environ.get("GIN_DISTRIBUTED", "").strip().lower() in {"1", "true", "yes", "on"}
READY_SECONDS = 30
PUSH_SECONDS = 10


@pytest.fixture(autouse=True)
def _needs_distributed_setup() -> None:
    if not _MISSING:
        return
    message = f"the scale-out test needs {' and '.join(_MISSING)}"
    if _REQUIRED:
        pytest.fail(f"GIN_DISTRIBUTED is set but {message}")
    pytest.skip(message)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _test_database_url() -> str:
    """DATABASE_URL with the test database this process uses (pytest-django's test_<name>)."""
    parts = urllib.parse.urlsplit(os.environ["DATABASE_URL"])
    name = connection.settings_dict["NAME"]
    return urllib.parse.urlunsplit(parts._replace(path="/" + name))


class Server:
    """One daphne process serving ginsite.asgi on its own port."""

    def __init__(self, name: str, log_dir: Path, app: str = "ginsite.asgi:application") -> None:
        self.name = name
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = (log_dir / f"daphne-{name}.log").open("w")
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "ginsite.settings",
            "DATABASE_URL": _test_database_url(),
            "SECRET_KEY": settings.SECRET_KEY,  # the session cookies must verify on both
            "DEBUG": "1",
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
        }
        self.process = subprocess.Popen(
            dying_with_parent(
                [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port), app]
            ),
            cwd=ROOT,
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )

    def wait_ready(self) -> None:
        deadline = time.monotonic() + READY_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"daphne {self.name} exited with {self.process.returncode}")
            try:
                with urllib.request.urlopen(self.base + "/accounts/login/", timeout=2) as r:
                    if r.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.2)
        raise RuntimeError(f"daphne {self.name} was not ready within {READY_SECONDS} s")

    def tail(self, lines: int = 40) -> str:
        """The end of this server's log, for a failure's message."""
        self.log.flush()
        text = Path(self.log.name).read_text(errors="replace").splitlines()
        return f"--- daphne {self.name}, its last {lines} lines:\n" + "\n".join(text[-lines:])

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)
        self.log.close()


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[tuple[Server, Server]]:
    started = [Server("A", tmp_path), Server("B", tmp_path)]
    try:
        for server in started:
            server.wait_ready()
        yield started[0], started[1]
    finally:
        for server in started:
            server.stop()


def _lower(headers: Any) -> dict[str, str]:
    return {k.lower(): v for k, v in headers.items()}


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


class Browser:
    """A player's HTTP session with one server: cookies, CSRF token, htmx-style posts."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.jar = CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), _NoRedirect()
        )

    def cookie(self, name: str) -> str:
        return next((c.value or "" for c in self.jar if c.name == name), "")

    def request(
        self, path: str, data: dict[str, Any] | None = None, *, htmx: bool = False
    ) -> tuple[int, dict[str, str], str]:
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        req = urllib.request.Request(self.server.base + path, data=body)
        req.add_header("Referer", self.server.base + "/")
        if data is not None:
            req.add_header("X-CSRFToken", self.cookie("csrftoken"))
        if htmx:
            req.add_header("HX-Request", "true")
        try:
            with self.opener.open(req, timeout=20) as response:
                return response.status, _lower(response.headers), response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, _lower(error.headers), error.read().decode()

    def log_in(self, username: str, password: str) -> None:
        status, _headers, page = self.request("/accounts/login/")
        assert status == 200
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        assert token is not None
        status, headers, _page = self.request(
            "/accounts/login/",
            {"login": username, "password": password, "csrfmiddlewaretoken": token.group(1)},
        )
        assert status == 302, f"login of {username} answered {status}"
        assert self.cookie("sessionid")

    def socket(self, path: str) -> ClientConnection:
        from websockets.sync.client import connect

        cookies = "; ".join(f"{c.name}={c.value}" for c in self.jar)
        return connect(
            f"ws://127.0.0.1:{self.server.port}{path}",
            additional_headers={"Cookie": cookies},
            origin=self.server.base,  # type: ignore[arg-type]
            open_timeout=10,
        )


def _wait_for(ws: ClientConnection, pattern: str, seconds: float = PUSH_SECONDS) -> str:
    """Frames until one contains ``pattern``; every frame read is returned joined."""
    seen: list[str] = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            frame = ws.recv(timeout=max(0.1, deadline - time.monotonic()))
        except TimeoutError:
            break
        text = frame if isinstance(frame, str) else frame.decode()
        seen.append(text)
        if pattern in text:
            return "".join(seen)
    raise AssertionError(f"no frame with {pattern!r} within {seconds} s; got {seen!r}")


def _form_of(action: dict[str, Any]) -> dict[str, Any]:
    if action["type"] == "seed":  # as the page sends it: a random seed of its own
        return {"move": "seed", "seed": f"page-{random.randrange(10**9)}"}
    if action["type"] == "draw":
        return {"move": f"draw_{action['from']}"}
    if "card" in action:
        return {"move": action["type"], "card": action["card"]}
    return {"move": action["type"]}


@pytest.mark.timeout(180)
def test_two_servers_share_one_lobby_and_one_table(
    servers: tuple[Server, Server], alice: User, bob: User, password: str
):
    server_a, server_b = servers
    alice_http, bob_http = Browser(server_a), Browser(server_b)
    alice_http.log_in("alice", password)
    bob_http.log_in("bob", password)

    # One lobby: Alice challenges Bob over HTTP on A; his lobby socket on B shows it.
    with alice_http.socket("/ws/lobby/") as alice_lobby, bob_http.socket("/ws/lobby/") as bob_lobby:
        _wait_for(bob_lobby, 'id="lobby-challenges"')
        status, _h, _page = alice_http.request(
            "/lobby/challenges/", {"to": "bob", "preset": "standard", "target": "50"}, htmx=True
        )
        assert status == 200
        pushed = _wait_for(bob_lobby, "data-incoming=")
        challenge = re.search(r'data-incoming="(\d+)"', pushed)
        assert challenge is not None
        status, headers, _page = bob_http.request(
            f"/lobby/challenges/{challenge.group(1)}/accept", {}, htmx=True
        )
        assert status == 204, status
        table = headers["hx-redirect"]
        # Alice, on the other server, is sent to the same table.
        _wait_for(alice_lobby, table)

    public_id = table.strip("/").split("/")[-1]
    match = Match.objects.get(public_id=public_id)
    assert match.kind == Match.Kind.LOBBY
    seat_of = {"alice": access.seat_of(match, alice), "bob": access.seat_of(match, bob)}
    https = {seat_of["alice"]: alice_http, seat_of["bob"]: bob_http}

    with (
        alice_http.socket(f"/ws/games/{public_id}/") as alice_ws,
        bob_http.socket(f"/ws/games/{public_id}/") as bob_ws,
    ):
        sockets = {seat_of["alice"]: alice_ws, seat_of["bob"]: bob_ws}
        _wait_for(alice_ws, 'id="hand"')
        _wait_for(bob_ws, 'id="hand"')
        # Each sees the other arrive, though their sockets live in different processes.
        _wait_for(alice_ws, "bob: connected")

        for _move in range(8):
            match.refresh_from_db()
            state = load_state(match)
            # The seat to move, or one whose seed the deal awaits (docs/fairness.md).
            mover = next(s for s in (0, 1) if legal_actions(state, s))
            view = player_view(load_state(match), mover)
            action = sorted(view["legal_actions"], key=json.dumps)[0]
            status, _h, _page = https[mover].request(
                f"/games/{public_id}/act",
                {**_form_of(action), "version": match.version},
                htmx=True,
            )
            assert status == 200, (status, action)
            version = match.version + 1
            # The other player's page, on the other server, gets the move pushed.
            other = sockets[1 - mover]
            pushed = _wait_for(other, f'data-version="{version}"')
            match.refresh_from_db()
            after = load_state(match)
            if after.phase not in ("hand_over", "match_over"):
                secret = [c for c in after.hands[mover] if c not in after.known[mover]]
                assert shown_cards(pushed, secret + list(after.stock)) == []
            # The mover's own socket catches up too (its page already has the POST answer).
            _wait_for(sockets[mover], f'data-version="{version}"')

    match.refresh_from_db()
    assert match.version == 8
