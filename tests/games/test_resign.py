"""/games/<id>/resign: confirm, then the match is lost."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from django.test import Client

from games import services
from games.models import Match
from tests.seeds import deal

from .conftest import snapshot, start, url

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db


def test_it_asks_for_confirmation(alice: User, alice_client: Client):
    match = start(alice)
    response = alice_client.get(url(match, "resign"))
    assert response.status_code == 200
    page = response.content.decode()
    assert "Resign the match?" in page and "If you resign, Bea wins the match." in page
    match.refresh_from_db()
    assert match.is_active


def test_it_does_nothing_without_the_confirmation(alice: User, alice_client: Client):
    match = start(alice)
    response = alice_client.post(url(match, "resign"))
    assert response.status_code == 200
    assert "Resign the match?" in response.content.decode()
    match.refresh_from_db()
    assert match.is_active


def test_it_resigns(alice: User, alice_client: Client):
    match = start(alice)
    response = alice_client.post(url(match, "resign"), {"confirm": "1", "version": 0})
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.RESIGNED and match.winner_seat == 1
    page = alice_client.get(url(match, "table")).content.decode()
    assert "This match was resigned." in page


def test_it_refuses_someone_else(alice: User, bob_client: Client):
    match = start(alice)
    before = snapshot(match)
    response = bob_client.post(url(match, "resign"), {"confirm": "1", "version": 0})
    assert response.status_code == 403
    assert bob_client.get(url(match, "resign")).status_code == 404
    match.refresh_from_db()
    assert match.is_active and snapshot(match) == before


def test_it_refuses_a_second_resignation(alice: User, alice_client: Client):
    match = start(alice)
    alice_client.post(url(match, "resign"), {"confirm": "1", "version": 0})
    response = alice_client.post(url(match, "resign"), {"confirm": "1", "version": 0})
    assert response.status_code == 409
    assert "This match is over." in response.content.decode()


def test_it_refuses_a_resignation_from_an_earlier_position(alice: User, alice_client: Client):
    match = start(alice)
    seen = deal(match).version
    page = alice_client.get(url(match, "resign")).content.decode()
    assert f'name="version" value="{seen}"' in page  # the confirmation says what it was made on
    services.submit(match, 0, {"type": "pass"}, seen)  # the match moved on meanwhile
    response = alice_client.post(url(match, "resign"), {"confirm": "1", "version": seen})
    assert response.status_code == 409
    assert "earlier position of the table" in response.content.decode()
    match.refresh_from_db()
    assert match.is_active
