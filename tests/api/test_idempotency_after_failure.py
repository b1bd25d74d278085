"""A key's answer commits with its change, or nothing does (issue 39, finding 6): a request that
fails once its change is made (as a worker killed there would) leaves the answer for the retry;
one that fails inside its change leaves nothing, and the retry makes it. The review's retries got
``409 idempotency_in_progress`` for minutes, or a refusal for a move that had been made; with
real kill -9 and two servers: tests/distributed/test_idempotency_crash.py."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
from django.test import Client

from games.api import matches as games_api
from games.models import Action
from lobby.api import routes as lobby_api
from lobby.models import IdempotencyRecord, Seek
from tests.games.live_helpers import lobby_match
from tests.seeds import deal

from .conftest import Api, body, token_for

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db

KEY = {"Idempotency-Key": "once-1"}


class Died(Exception):
    """The request's process, gone at that point."""


def _failing_after(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> None:
    """``module.name`` does what it does, then the request fails."""
    real = getattr(module, name)

    def then_fail(*args: Any, **kwargs: Any) -> Any:
        real(*args, **kwargs)
        raise Died

    monkeypatch.setattr(module, name, then_fail)


@pytest.fixture
def api(alice: User) -> Api:
    # The 500 reaches the client, as from a server; the test client would raise it instead.
    return Api(token_for(alice), Client(raise_request_exception=False))


def test_a_move_made_before_its_request_failed_gives_the_retry_its_answer(
    api: Api, alice: User, bob: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    match = lobby_match(alice, bob)
    version = deal(match).version
    path = f"/matches/{match.public_id}/actions"
    move = {"action": {"type": "pass"}, "version": version}
    _failing_after(monkeypatch, games_api, "move")
    api.post(path, move, headers=KEY)  # made, and then the request failed
    monkeypatch.undo()
    retry = api.post(path, move, headers=KEY)
    assert (retry.status_code, retry["Idempotent-Replayed"]) == (200, "true"), retry.content
    assert body(retry)["version"] == version + 1
    assert Action.objects.filter(match=match).count() == version + 1


def test_a_seek_whose_request_failed_is_not_made_and_the_retry_makes_it(
    api: Api, alice: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    _failing_after(monkeypatch, lobby_api.lobby_services, "post_seek")
    failed = api.post("/seeks", {}, headers=KEY)
    assert failed.status_code == 500
    assert not Seek.objects.exists() and not IdempotencyRecord.objects.exists()
    monkeypatch.undo()
    retry = api.post("/seeks", {}, headers=KEY)
    assert retry.status_code == 201 and not retry.has_header("Idempotent-Replayed")
    again = api.post("/seeks", {}, headers=KEY)
    assert (again.status_code, again.content) == (201, retry.content)
    assert Seek.objects.filter(poster=alice).count() == 1
