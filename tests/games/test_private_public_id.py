"""A private match's public id (``/games/<id>/``) never leads to its secret invitation link:
its players and the watchers the host allowed get the table there, everyone else a 404 as if
there were no such match (issue 28, item 6)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from django.test import Client

from .conftest import url
from .test_private import guest_joins, hosted_by

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db


def _signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize("who", ["anonymous", "carol"])
def test_it_answers_404_to_whoever_may_not_see_the_table(alice: User, carol: User, who: str):
    table, match = hosted_by(alice, allow_spectators=False)
    guest_joins(table)
    client = Client() if who == "anonymous" else _signed_in(carol)
    response = client.get(url(match, "table"))
    assert response.status_code == 404
    assert table.token not in response.content.decode()
    assert table.token not in response.get("Location", "")


def test_its_players_get_their_table_there(alice: User):
    table, match = hosted_by(alice, allow_spectators=False)
    guest = guest_joins(table)
    for client in (_signed_in(alice), guest):
        response = client.get(url(match, "table"))
        assert response.status_code == 200
        html = response.content.decode()
        assert "You are watching" not in html and f"/ws/games/{match.public_id}/" in html


def test_a_watcher_the_host_allowed_watches_there_without_seeing_the_link(alice: User, carol: User):
    table, match = hosted_by(alice, allow_spectators=True)
    guest_joins(table)
    for client in (Client(), _signed_in(carol)):
        response = client.get(url(match, "table"))
        assert response.status_code == 200
        html = response.content.decode()
        assert "You are watching" in html
        assert table.token not in html


def test_a_match_id_never_starts_like_a_command_line_option(monkeypatch):
    """ginclient prints "python -m ginclient play <id>": an id starting with "-" (one in 64 of
    token_urlsafe's) would be taken for an option there, so such a draw is made again."""
    from games import models

    draws = iter(["-starts-like-an-option", "-again", "Abc_-def"])
    monkeypatch.setattr(models.secrets, "token_urlsafe", lambda _n: next(draws))
    assert models.new_public_id() == "Abc_-def"
