"""Settings for the table: the four-colour deck and sound, kept with the account."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games import services
from games.models import Match

pytestmark = pytest.mark.django_db


def _table(client: Client, alice: User) -> str:
    match = services.start_bea_match(alice, "standard", 100, "easy", replace_running=True)
    assert isinstance(match, Match)
    return client.get(f"/games/{match.public_id}/").content.decode()


def test_it_draws_a_four_colour_deck_when_chosen(client: Client, alice: User) -> None:
    client.force_login(alice)
    assert "four-colour" not in _table(client, alice).split("<body", 1)[1].split(">", 1)[0]
    response = client.post(
        "/settings/", {"display_name": "alice", "language": "", "four_colour_deck": "on"}
    )
    assert response.status_code == 302
    alice.profile.refresh_from_db()
    assert alice.profile.four_colour_deck
    body = _table(client, alice).split("<body", 1)[1].split(">", 1)[0]
    assert "four-colour" in body


def test_it_keeps_the_sound_choice_with_the_account(client: Client, alice: User) -> None:
    client.force_login(alice)
    assert 'data-account="off"' in _table(client, alice)
    assert client.post("/settings/sound", {"on": "1"}).status_code == 204
    alice.profile.refresh_from_db()
    assert alice.profile.sound_on
    assert 'data-account="on"' in _table(client, alice)
    assert client.post("/settings/sound", {"on": "0"}).status_code == 204
    alice.profile.refresh_from_db()
    assert not alice.profile.sound_on


def test_it_keeps_no_sound_choice_for_nobody(client: Client) -> None:
    response = client.post("/settings/sound", {"on": "1"})
    assert response.status_code == 302
