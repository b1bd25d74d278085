"""kill -9 right after a move commits: the opponent's event stream still hears of it.

Server A commits alice's move, and with it the players' events, and is killed before it pushes
anything (its pushes wait a few seconds, and the kill comes in that window). Bob's event
stream is on server B and is never woken for it; it reads the log at its next keep-alive and
receives the match event of that version, once. The same holds for a page's move over its
table socket: the other page's socket renders the move at its next beat on B.
"""

from __future__ import annotations

import json
import os
import signal
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from games.live.presence import HEARTBEAT_SECONDS
from games.models import Action, Announcement, Match
from lobby.accounts import tokens
from lobby.models import PlayerEvent
from tests.distributed.test_scale_out import (  # noqa: F401
    Browser,
    Server,
    _needs_distributed_setup,
    _wait_for,
)
from tests.games.conftest import ALICE_KNOCKS, BEA_LOOSE, stacked
from tests.games.live_helpers import lobby_match

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = [pytest.mark.distributed, pytest.mark.django_db(transaction=True)]

# B's beat looks for missed events every 10 s (KEEPALIVE_SECONDS): three beats. CI under load
# once saw nothing in 20 s.
EVENT_SECONDS = 30


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[tuple[Server, Server]]:
    started = [
        Server("A", tmp_path, "tests.distributed.slow_delivery_asgi:application"),
        Server("B", tmp_path),
    ]
    try:
        for server in started:
            server.wait_ready()
        yield started[0], started[1]
    finally:
        for server in started:
            if server.process.poll() is None:
                server.stop()
            else:
                server.log.close()


def _post_move(server: Server, token: str, match: Match, answers: list[Any]) -> None:
    """alice's move on A; A dies before answering, so the answer is an error."""
    request = urllib.request.Request(
        f"{server.base}/api/v1/matches/{match.public_id}/actions",
        data=json.dumps({"action": {"type": "pass"}, "version": 0}).encode(),
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            answers.append(response.status)
    except (urllib.error.URLError, ConnectionError, TimeoutError) as gone:
        answers.append(gone)


def _table(alice: User, bob: User) -> tuple[Match, str, str]:
    """A lobby match of alice's and bob's, alice to move, and a token for each."""
    match = lobby_match(alice, bob, deck=stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "2D"))
    return match, tokens.create(alice, "crash test")[1], tokens.create(bob, "crash test")[1]


def _kill_once_committed(server: Server, match: Match, bob: User, mover: threading.Thread) -> None:
    """Wait until the move ``mover`` sends to ``server`` has committed, with bob's event of it,
    and kill the server at once (before its slow pushes), then let ``mover`` finish."""
    deadline = time.monotonic() + 15
    while not Action.objects.filter(match=match).exists():
        assert time.monotonic() < deadline, "the move never committed on A"
        time.sleep(0.05)
    # Committed with its events, and nobody told yet: kill A now.
    assert PlayerEvent.objects.filter(user=bob, kind="match", payload__version=1).exists()
    os.kill(server.process.pid, signal.SIGKILL)
    server.process.wait(timeout=10)
    mover.join(timeout=30)


def _versions_heard(stream: Any, match: Match) -> list[int]:
    """The versions of ``match`` the event socket ``stream`` tells of, until version 1 came
    or EVENT_SECONDS passed."""
    versions: list[int] = []
    deadline = time.monotonic() + EVENT_SECONDS
    while 1 not in versions and time.monotonic() < deadline:
        try:
            frame = json.loads(stream.recv(timeout=max(0.1, deadline - time.monotonic())))
        except TimeoutError:
            break
        if frame.get("type") == "match" and frame["data"]["match"] == match.public_id:
            versions.append(frame["data"]["version"])
    return versions


@pytest.mark.timeout(120)
def test_a_move_committed_before_kill_9_still_reaches_the_opponent(
    servers: tuple[Server, Server], alice: User, bob: User
):
    from websockets.sync.client import connect

    server_a, server_b = servers
    match, alice_token, bob_token = _table(alice, bob)
    with connect(
        f"ws://127.0.0.1:{server_b.port}/ws/events/?token={bob_token}", open_timeout=10
    ) as stream:
        hello = json.loads(stream.recv(timeout=10))
        assert hello["type"] == "hello"
        answers: list[Any] = []
        poster = threading.Thread(target=_post_move, args=(server_a, alice_token, match, answers))
        poster.start()
        _kill_once_committed(server_a, match, bob, poster)
        assert answers and not isinstance(answers[0], int), "A answered before it died"
        versions = _versions_heard(stream, match)
        assert versions.count(1) == 1, (
            f"bob did not hear of the committed move once ({versions})\n{server_b.tail()}"
        )
    assert not Announcement.objects.filter(match=match, delivered_at__isnull=True).exists()
    assert Match.objects.get(pk=match.pk).version == 1


def _alice_passes(match: Match, ident: str) -> str:
    """alice's first move as an ``act`` frame, always with the same idempotency key."""
    command = {"type": "act", "id": ident, "match": match.public_id, "version": 0}
    return json.dumps({**command, "action": {"type": "pass"}, "idempotency_key": "alice-pass-1"})


def _act_over_socket(server: Server, token: str, match: Match, answers: list[Any]) -> None:
    """alice's move as an ``act`` frame on her event socket to A; A dies before answering."""
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    try:
        with connect(f"ws://127.0.0.1:{server.port}/ws/events/?token={token}") as socket:
            socket.send(_alice_passes(match, "first"))
            while True:
                frame = json.loads(socket.recv(timeout=30))
                if frame["type"] == "answer":
                    answers.append(frame)
                    return
    except (ConnectionClosed, OSError, TimeoutError) as gone:
        answers.append(gone)


@pytest.mark.timeout(120)
def test_a_move_over_the_socket_committed_before_kill_9_is_made_once_and_heard_once(
    servers: tuple[Server, Server], alice: User, bob: User
):
    """The same crash with the move sent over alice's event socket: bob hears of it once; alice,
    who got no answer, sends it again over a new socket to B with the same key and gets the
    answer A never sent (the key's record committed with the move), not a second move; her own
    stream on B tells her of it."""
    from websockets.sync.client import connect

    server_a, server_b = servers
    match, alice_token, bob_token = _table(alice, bob)
    with connect(
        f"ws://127.0.0.1:{server_b.port}/ws/events/?token={bob_token}", open_timeout=10
    ) as stream:
        assert json.loads(stream.recv(timeout=10))["type"] == "hello"
        answers: list[Any] = []
        mover = threading.Thread(
            target=_act_over_socket, args=(server_a, alice_token, match, answers)
        )
        mover.start()
        _kill_once_committed(server_a, match, bob, mover)
        assert answers and not isinstance(answers[0], dict), "A answered before it died"

        # alice does not know whether it was made: the same move, the same key, on B.
        with connect(
            f"ws://127.0.0.1:{server_b.port}/ws/events/?token={alice_token}&since=0",
            open_timeout=10,
        ) as again:
            again.send(_alice_passes(match, "retry"))
            heard: list[int] = []
            retried = None
            deadline = time.monotonic() + EVENT_SECONDS
            while (retried is None or 1 not in heard) and time.monotonic() < deadline:
                frame = json.loads(again.recv(timeout=max(0.1, deadline - time.monotonic())))
                if frame["type"] == "answer":
                    retried = frame
                elif frame["type"] == "match" and frame["data"]["match"] == match.public_id:
                    heard.append(frame["data"]["version"])
            assert retried is not None and retried["id"] == "retry"
            # The key's answer committed with the move: B gives it again, and the move is not
            # made a second time.
            assert (retried["status"], retried.get("replayed")) == (200, True), retried
            assert retried["body"]["version"] == 1
            assert heard.count(1) == 1, heard

        versions = _versions_heard(stream, match)
        assert versions.count(1) == 1, (
            f"bob did not hear of the committed move once ({versions})\n{server_b.tail()}"
        )
    assert Match.objects.get(pk=match.pk).version == 1
    assert Action.objects.filter(match=match).count() == 1


# alice's first move as her page sends it over its table socket.
PAGE_PASS = json.dumps({"type": "act", "move": "pass", "version": 0})


def _table_answer(table: Any) -> dict[str, Any]:
    """The answer frame to the move a page just sent over its table socket."""
    deadline = time.monotonic() + 30
    while True:
        frame = table.recv(timeout=max(0.1, deadline - time.monotonic()))
        if frame.startswith('{"type": "answer"'):
            return json.loads(frame)  # type: ignore[no-any-return]


def _act_on_table(page: Browser, match: Match, answers: list[Any]) -> None:
    """alice's page sends her move over its table socket to A; A dies before answering."""
    from websockets.exceptions import ConnectionClosed

    try:
        with page.socket(f"/ws/games/{match.public_id}/") as table:
            _wait_for(table, 'data-version="0"')
            table.send(PAGE_PASS)
            answers.append(_table_answer(table))
    except (ConnectionClosed, OSError, TimeoutError) as gone:
        answers.append(gone)


@pytest.mark.timeout(120)
def test_a_page_move_over_the_table_socket_committed_before_kill_9_is_made_once_and_shown_to_both(
    servers: tuple[Server, Server], alice: User, bob: User, password: str
):
    """The crash with the move sent from alice's table page over its own socket: bob's page on
    B shows the move at its socket's next beat though nobody pushed it; alice's page, which got
    no answer, connects to B and shows her move made once, and the same frame sent again
    (a page that retried) is refused as stale and changes nothing."""
    server_a, server_b = servers
    match, _alice_token, _bob_token = _table(alice, bob)
    alice_page, bob_page = Browser(server_a), Browser(server_b)
    alice_page.log_in("alice", password)
    bob_page.log_in("bob", password)
    with bob_page.socket(f"/ws/games/{match.public_id}/") as bob_table:
        _wait_for(bob_table, 'data-version="0"')
        answers: list[Any] = []
        mover = threading.Thread(target=_act_on_table, args=(alice_page, match, answers))
        mover.start()
        _kill_once_committed(server_a, match, bob, mover)
        assert answers and not isinstance(answers[0], dict), "A answered before it died"
        _wait_for(bob_table, 'data-version="1"', seconds=HEARTBEAT_SECONDS + 10)

    # alice's page reconnects, now to B, with the same session cookie.
    alice_again = Browser(server_b)
    alice_again.jar = alice_page.jar
    with alice_again.socket(f"/ws/games/{match.public_id}/") as table:
        _wait_for(table, 'data-version="1"')
        table.send(PAGE_PASS)
        answer = _table_answer(table)
        assert answer["status"] == 409, answer
        assert 'data-version="1"' in answer["html"]
    assert Match.objects.get(pk=match.pk).version == 1
    assert Action.objects.filter(match=match).count() == 1
