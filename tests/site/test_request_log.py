"""One log line per request, for people to grep: user, match, method, path, status, time."""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING

import pytest
from django.test import Client

from lobby.accounts import tokens
from tests.games.live_helpers import lobby_match
from tests.seeds import deal

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db

LINE = re.compile(r"^user=(\S+) match=(\S+) (\S+) (\S+) (\d{3}) (\d+)ms$")


class Lines:
    """The request log's lines so far."""

    def __init__(self, caplog: pytest.LogCaptureFixture) -> None:
        self.caplog = caplog
        caplog.set_level(logging.DEBUG, logger="ginsite.requests")

    def clear(self) -> None:
        self.caplog.clear()

    def __call__(self) -> list[str]:
        return [r.getMessage() for r in self.caplog.records if r.name == "ginsite.requests"]


@pytest.fixture
def lines(caplog: pytest.LogCaptureFixture) -> Lines:
    return Lines(caplog)


def _only(lines: Lines) -> tuple[str, ...]:
    logged = lines()
    assert len(logged) == 1, logged
    found = LINE.match(logged[0])
    assert found, logged[0]
    return found.groups()


def test_it_logs_a_players_page_with_the_match(alice: User, bob: User, lines: Lines) -> None:
    match = lobby_match(alice, bob)
    client = Client()
    client.force_login(alice)
    lines.clear()
    client.get(f"/games/{match.public_id}/")
    user, match_id, method, path, status, _ms = _only(lines)
    assert (user, match_id, method, status) == ("alice", match.public_id, "GET", "200")
    assert path == f"/games/{match.public_id}/"


def test_it_logs_an_api_move_with_the_tokens_owner(alice: User, bob: User, lines: Lines) -> None:
    match = lobby_match(alice, bob)
    version = deal(match).version
    token = tokens.create(alice, "log")[1]
    lines.clear()
    Client().post(
        f"/api/v1/matches/{match.public_id}/actions",
        {"action": {"type": "pass"}, "version": version},
        content_type="application/json",
        headers={"Authorization": f"Bearer {token}"},
    )
    user, match_id, method, path, status, _ms = _only(lines)
    assert (user, match_id, method, status) == ("alice", match.public_id, "POST", "200")
    assert path == f"/api/v1/matches/{match.public_id}/actions"


def test_it_logs_anonymous_visitors_and_refusals(lines: Lines) -> None:
    Client().get("/players/nobody/", {"token": "gin_secret"})
    assert _only(lines)[:5] == ("-", "-", "GET", "/players/nobody/", "404")
    assert "gin_secret" not in lines()[0]  # the query is never logged


def test_an_invitation_links_token_is_starred(alice: User, lines: Lines) -> None:
    """Whoever reads the log cannot take the open seat of a private table from it."""
    from games.private.tables import open_table

    table, _match, _key = open_table(alice)
    client = Client()
    client.force_login(alice)
    lines.clear()
    client.get(f"/games/t/{table.token}/")
    assert _only(lines)[3:5] == ("/games/t/*/", "200")
    assert table.token not in lines()[0]


def test_a_path_cannot_forge_a_line(lines: Lines) -> None:
    Client().get("/players/x%0Auser=admin%20match=-%20GET%20/admin/%20200%201ms/")
    assert "\n" not in lines()[0]
    assert _only(lines)[3].startswith("/players/x%0Auser=admin")
