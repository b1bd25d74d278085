"""kill -9 while a POST with an ``Idempotency-Key`` is under way (issue 39, finding 6): the
documented retry, sent with the same key to another server at once, gets the committed answer,
or finds nothing made and goes through; never ``409 idempotency_in_progress`` (the review got it
for 10 of 15 unanswered moves, for up to 2 minutes, and 2 of those moves had been made).

Server A is killed either after the change committed and before it answered (its pushes after a
commit wait a few seconds: ``slow_delivery_asgi``), or inside the change's transaction
(``paused_change_asgi``). Server B takes the retry. A move (``POST /matches/{id}/actions``) and
a lobby action (``POST /seeks``) each, since the two keep their key's answer each their way.
"""

from __future__ import annotations

import json
import os
import signal
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from games.models import Action, Match
from lobby.accounts import tokens
from lobby.models import IdempotencyRecord, Seek
from tests.distributed.test_scale_out import (  # noqa: F401
    Server,
    _needs_distributed_setup,
)
from tests.games.conftest import ALICE_KNOCKS, BEA_LOOSE, stacked
from tests.games.live_helpers import lobby_match

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = [pytest.mark.distributed, pytest.mark.django_db(transaction=True)]

SLOW_AFTER_COMMIT = "tests.distributed.slow_delivery_asgi:application"
PAUSED_IN_CHANGE = "tests.distributed.paused_change_asgi:application"
KEY = "retry-after-crash-1"
PASS = {"action": {"type": "pass"}, "version": 0}


@pytest.fixture
def start(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., Server]]:
    """Starts a daphne of the given application (ready when returned); all are stopped after."""
    monkeypatch.setenv("GIN_PAUSED_AT", str(tmp_path / "paused"))
    started: list[Server] = []

    def made(name: str, app: str = "ginsite.asgi:application") -> Server:
        server = Server(name, tmp_path, app)
        started.append(server)
        server.wait_ready()
        return server

    yield made
    for server in started:
        if server.process.poll() is None:
            server.stop()
        else:
            server.log.close()


def _post(server: Server, token: str, path: str, body: dict[str, Any]) -> tuple[int, Any, bool]:
    """The answer to a POST with ``KEY``: status, JSON body, and whether it was a replay."""
    request = urllib.request.Request(
        f"{server.base}/api/v1{path}",
        data=json.dumps(body).encode(),
        headers={
            "Authorization": f"Bearer {token}",
            "Content-Type": "application/json",
            "Idempotency-Key": KEY,
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            replayed = response.headers.get("Idempotent-Replayed") == "true"
            return response.status, json.loads(response.read()), replayed
    except urllib.error.HTTPError as refused:
        replayed = refused.headers.get("Idempotent-Replayed") == "true"
        return refused.code, json.loads(refused.read()), replayed


def _unanswered(server: Server, token: str, path: str, body: dict[str, Any]) -> threading.Thread:
    """The POST sent to ``server`` on a thread of its own; the server dies before answering."""
    answers: list[Any] = []

    def send() -> None:
        try:
            answers.append(_post(server, token, path, body))
        except (urllib.error.URLError, ConnectionError, TimeoutError) as gone:
            answers.append(gone)

    sender = threading.Thread(target=send)
    sender.answers = answers  # type: ignore[attr-defined]
    sender.start()
    return sender


def _kill_when(server: Server, sender: threading.Thread, ready: Callable[[], bool]) -> None:
    deadline = time.monotonic() + 20
    while not ready():
        assert time.monotonic() < deadline, "the server never got that far"
        time.sleep(0.05)
    os.kill(server.process.pid, signal.SIGKILL)
    server.process.wait(timeout=10)
    sender.join(timeout=30)
    [answer] = sender.answers  # type: ignore[attr-defined]
    assert not isinstance(answer, tuple), f"{server.name} answered before it died: {answer}"


def _match_and_token(alice: User, bob: User) -> tuple[Match, str]:
    match = lobby_match(alice, bob, deck=stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "2D"))
    return match, tokens.create(alice, "crash test")[1]


@pytest.mark.timeout(180)
def test_a_move_committed_before_kill_9_gives_its_retry_the_answer(
    start: Callable[..., Server], alice: User, bob: User
) -> None:
    server_a, server_b = start("A", SLOW_AFTER_COMMIT), start("B")
    match, token = _match_and_token(alice, bob)
    path = f"/matches/{match.public_id}/actions"
    sender = _unanswered(server_a, token, path, PASS)
    _kill_when(server_a, sender, Action.objects.filter(match=match).exists)

    status, answer, replayed = _post(server_b, token, path, PASS)
    assert (status, replayed) == (200, True), answer
    assert answer["version"] == 1 and answer["seat"] == 0
    assert Action.objects.filter(match=match).count() == 1


@pytest.mark.timeout(180)
def test_a_move_killed_inside_its_transaction_is_not_made_and_its_retry_makes_it(
    start: Callable[..., Server], alice: User, bob: User, tmp_path: Path
) -> None:
    server_a, server_b = start("A", PAUSED_IN_CHANGE), start("B")
    match, token = _match_and_token(alice, bob)
    path = f"/matches/{match.public_id}/actions"
    sender = _unanswered(server_a, token, path, PASS)
    _kill_when(server_a, sender, (tmp_path / "paused").exists)

    # Nothing of it stayed: neither the move nor its key's record.
    assert not Action.objects.filter(match=match).exists()
    assert not IdempotencyRecord.objects.filter(key=KEY).exists()
    status, answer, replayed = _post(server_b, token, path, PASS)
    assert (status, replayed) == (200, False), answer
    assert answer["version"] == 1
    again = _post(server_b, token, path, PASS)
    assert again == (200, answer, True)
    assert Action.objects.filter(match=match).count() == 1


@pytest.mark.timeout(180)
def test_a_seek_committed_before_kill_9_gives_its_retry_the_answer(
    start: Callable[..., Server], alice: User
) -> None:
    server_a, server_b = start("A", SLOW_AFTER_COMMIT), start("B")
    token = tokens.create(alice, "crash test")[1]
    sender = _unanswered(server_a, token, "/seeks", {})
    _kill_when(server_a, sender, Seek.objects.filter(poster=alice).exists)

    status, answer, replayed = _post(server_b, token, "/seeks", {})
    assert (status, replayed) == (201, True), answer
    assert answer["id"] == Seek.objects.get(poster=alice).pk


@pytest.mark.timeout(180)
def test_a_seek_killed_inside_its_transaction_is_not_made_and_its_retry_makes_it(
    start: Callable[..., Server], alice: User, tmp_path: Path
) -> None:
    server_a, server_b = start("A", PAUSED_IN_CHANGE), start("B")
    token = tokens.create(alice, "crash test")[1]
    sender = _unanswered(server_a, token, "/seeks", {})
    _kill_when(server_a, sender, (tmp_path / "paused").exists)

    assert not Seek.objects.filter(poster=alice).exists()
    assert not IdempotencyRecord.objects.filter(key=KEY).exists()
    status, answer, replayed = _post(server_b, token, "/seeks", {})
    assert (status, replayed) == (201, False), answer
    assert _post(server_b, token, "/seeks", {}) == (201, answer, True)
    assert Seek.objects.filter(poster=alice).count() == 1


@pytest.mark.timeout(180)
def test_two_sends_of_a_key_at_once_on_two_servers_make_one_seek_and_one_answer(
    start: Callable[..., Server], alice: User
) -> None:
    """The second waits for the first's transaction and gives its answer: not a 409."""
    servers = [start("A"), start("B")]
    token = tokens.create(alice, "race")[1]
    answers: list[Any] = []
    barrier = threading.Barrier(len(servers))

    def send(server: Server) -> None:
        barrier.wait()
        answers.append(_post(server, token, "/seeks", {}))

    senders = [threading.Thread(target=send, args=(server,)) for server in servers]
    for sender in senders:
        sender.start()
    for sender in senders:
        sender.join(timeout=60)
    assert sorted(status for status, _answer, _replayed in answers) == [201, 201]
    assert answers[0][1] == answers[1][1]
    assert sorted(replayed for _status, _answer, replayed in answers) == [False, True]
    assert Seek.objects.filter(poster=alice).count() == 1
