"""Accounts that play through a bot say so in Settings and carry a BOT badge in the lobby and
on the table's name plates."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.web.socket_asker import TableReader
from games.web.table_socket import _render
from lobby import services
from lobby.models import Seek
from tests.lobby.lobby_helpers import online

pytestmark = pytest.mark.django_db

BADGE = '<span class="badge bot" title="Plays through a bot">BOT</span>'


def _says_bot(client: Client, user: User) -> None:
    client.force_login(user)
    response = client.post(
        "/settings/", {"display_name": user.username, "language": "", "plays_by_bot": "on"}
    )
    assert response.status_code == 302


def test_settings_say_i_play_through_a_bot(client: Client, alice: User) -> None:
    client.force_login(alice)
    assert "I play through a bot" in client.get("/settings/").content.decode()
    _says_bot(client, alice)
    alice.profile.refresh_from_db()
    assert alice.profile.plays_by_bot


def test_the_lobby_and_the_table_show_the_badge(client: Client, alice: User, bob: User) -> None:
    online(alice, bob)
    _says_bot(client, bob)
    client.force_login(alice)
    lobby = client.get("/lobby/").content.decode()
    row = lobby[lobby.index('data-player="bob"') :]
    assert BADGE in row[: row.index("</li>")]
    assert lobby.count(BADGE) == 1  # alice is no bot
    services.post_seek(bob, "standard", 100)
    assert client.get("/lobby/").content.decode().count(BADGE) == 2  # the seek's poster too
    match = services.accept_seek(Seek.objects.get(status="open"), alice)
    table = client.get(f"/games/{match.public_id}/").content.decode()
    assert re.search(r'<dt>bob <span class="rating">[^<]* BOT</span>', table)
    assert not re.search(r'<dt>alice <span class="rating">[^<]*BOT</span>', table)
    assert client.get("/lobby/").content.decode().count(BADGE) == 2  # players, match
    # And in what the table's socket renders, which reads the profiles with the seats.
    seat = match.seats.get(user=alice).number
    reader = TableReader(match.pk, match.public_id, match.group_name, seat)
    rendered = _render(reader, None, "")
    assert rendered is not None
    assert re.search(r'<dt>bob <span class="rating">[^<]* BOT</span>', rendered[0])
    assert not re.search(r'<dt>alice <span class="rating">[^<]*BOT</span>', rendered[0])


def test_a_match_from_before_the_switch_carries_no_badge(
    client: Client, alice: User, bob: User
) -> None:
    """Issue 41: bob played this match himself; he turned the bot on afterwards."""
    online(alice, bob)
    services.post_seek(bob, "standard", 100)
    before = services.accept_seek(Seek.objects.get(status="open"), alice)
    _says_bot(client, bob)
    client.force_login(alice)
    table = client.get(f"/games/{before.public_id}/").content.decode()
    assert not re.search(r'<dt>bob <span class="rating">[^<]*BOT</span>', table)
    # Turned off and on again, the badge counts from the second switch.
    bob.profile.refresh_from_db()
    bob.profile.plays_by_bot = False
    bob.profile.save()
    assert bob.profile.plays_by_bot_since is None
