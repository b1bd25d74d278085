"""A moderator's action on one worker reaches the player's open sockets on the other: two real
daphne processes, one PostgreSQL database, one Redis.

Alice has her lobby and a table open on server B, and a rated seek posted; bob watches the
lobby on B. Mo, a moderator signed in on server A, bans alice from rated play: her pages on B
show the notice at once, and her seek leaves bob's lobby. Then mo closes her account: every
socket alice holds on B closes (4401).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import pytest

from lobby.models import Seek
from tests.distributed.test_scale_out import (
    PUSH_SECONDS,
    Browser,
    Server,
    _needs_distributed_setup,  # noqa: F401 - an autouse fixture: skip without PG and Redis
    _wait_for,
    servers,  # noqa: F401 - the two daphne processes
)
from tests.games.live_helpers import lobby_match
from tests.moderation.helpers import make_moderator

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from websockets.sync.client import ClientConnection

pytestmark = [pytest.mark.distributed, pytest.mark.django_db(transaction=True)]

BANNED = "A moderator has suspended your rated play."


def _closed_code(ws: ClientConnection, seconds: float = PUSH_SECONDS) -> int:
    """The code ``ws`` is closed with, reading past the frames before it."""
    from websockets.exceptions import ConnectionClosed

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            ws.recv(timeout=max(0.1, deadline - time.monotonic()))
        except TimeoutError:
            break
        except ConnectionClosed as closed:
            assert closed.rcvd is not None
            return closed.rcvd.code
    raise AssertionError(f"not closed within {seconds} s")


def _wait_for_seeks_without(ws: ClientConnection, needle: str) -> None:
    """Frames until the seeks region comes without ``needle``."""
    deadline = time.monotonic() + PUSH_SECONDS
    while time.monotonic() < deadline:
        frame = str(ws.recv(timeout=max(0.1, deadline - time.monotonic())))
        if 'id="lobby-seeks"' in frame:
            region = frame[frame.index('id="lobby-seeks"') :]
            region = region[: region.index("</section>")]
            if needle not in region:
                return
    raise AssertionError(f"the seeks still showed {needle!r} after {PUSH_SECONDS} s")


def _act(moderator: Browser, username: str, kind: str, reason: str) -> None:
    status, headers, _page = moderator.request(
        f"/moderation/players/{username}/act",
        {"kind": kind, "topic": "rating_abuse", "reason": reason},
    )
    assert status == 302, status
    status, _headers, page = moderator.request(headers["location"])
    assert "Done:" in page, page[-2000:]


@pytest.mark.timeout(180)
def test_a_ban_and_a_closure_on_one_worker_reach_the_player_on_the_other(
    servers: tuple[Server, Server],  # noqa: F811
    django_user_model: type[User],
    alice: User,
    bob: User,
    carol: User,
    password: str,
) -> None:
    server_a, server_b = servers
    make_moderator(django_user_model, "mo")
    match = lobby_match(alice, carol)
    mo, alice_http, bob_http = Browser(server_a), Browser(server_b), Browser(server_b)
    mo.log_in("mo", password)
    alice_http.log_in("alice", password)
    bob_http.log_in("bob", password)

    with (
        alice_http.socket("/ws/lobby/") as alice_lobby,
        alice_http.socket(f"/ws/games/{match.public_id}/") as alice_table,
        bob_http.socket("/ws/lobby/") as bob_lobby,
    ):
        _wait_for(alice_lobby, 'id="lobby-seeks"')
        _wait_for(alice_table, 'id="hand"')
        _wait_for(bob_lobby, 'id="lobby-seeks"')
        status, _h, _page = alice_http.request(
            "/lobby/seeks/",
            {"preset": "classic", "target": "100", "rated": "on", "days": "3"},
            htmx=True,
        )
        assert status == 200, status
        seek = Seek.objects.get(poster=alice, status="open")
        assert seek.rated
        _wait_for(bob_lobby, f'data-seek="{seek.pk}"')

        # Banned on A: her pages on B show it at once; her rated seek leaves bob's lobby.
        _act(mo, "alice", "rated_ban", "a farm of throw-away accounts")
        assert BANNED in _wait_for(alice_lobby, BANNED)
        assert BANNED in _wait_for(alice_table, BANNED)
        _wait_for_seeks_without(bob_lobby, f'data-seek="{seek.pk}"')
        seek.refresh_from_db()
        assert seek.status == "cancelled"

        # Closed on A: every socket alice holds on B closes.
        _act(mo, "alice", "closure", "the farm's owner")
        assert _closed_code(alice_lobby) == 4401
        assert _closed_code(alice_table) == 4401
    status, _headers, _page = alice_http.request("/api/v1/me")
    assert status == 401
