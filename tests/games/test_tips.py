"""The tips of a first match: shown once, beside the table, never in the way of a move."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from django.test import Client

from games import services
from games.access import GUEST_COOKIE, key_cookie_value, new_key
from games.bea import guests
from games.table.tips import COOKIE
from tests.seeds import deal

from .conftest import ALICE_KNOCKS, BEA_LOOSE, move, stacked, start, url
from .live_helpers import lobby_match

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db

TIPS = 'id="tips"'


def test_they_appear_once_on_a_first_match(alice: User, alice_client: Client):
    match = start(alice, stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "2D"))
    first = alice_client.get(url(match, "table"))
    page = first.content.decode()
    assert TIPS in page
    assert "the number under each card is your deadwood if you discard that card" in page
    assert "When that number is 10 or less, you may Knock" in page
    assert "Hint shows what Bea would do" in page and url(match, "hint") in page
    assert first.cookies[COOKIE].value
    # They never block play: the table's buttons are all there and a move goes through.
    assert "aria-modal" not in page and 'role="dialog"' not in page
    assert 'value="pass"' in page
    assert move(alice_client, match, "pass").status_code == 302
    # Once: the next visit, and every page after it, comes without them.
    assert TIPS not in alice_client.get(url(match, "table")).content.decode()


def test_a_player_with_earlier_matches_gets_none(alice: User, alice_client: Client):
    old = start(alice)
    services.resign(old, 0, services.CURRENT)
    match = start(alice)
    assert TIPS not in alice_client.get(url(match, "table")).content.decode()


def test_a_guest_gets_them_on_the_first_match_only(client: Client):
    key = new_key()
    client.cookies[GUEST_COOKIE] = key_cookie_value(GUEST_COOKIE, key)
    first = guests.start(key)
    page = client.get(url(first, "table")).content.decode()
    assert TIPS in page
    fresh = Client()
    fresh.cookies[GUEST_COOKIE] = key_cookie_value(GUEST_COOKIE, key)
    second = guests.start(key, replace_running=True)
    assert TIPS not in fresh.get(url(second, "table")).content.decode()


def test_a_finished_match_shows_none(alice: User, alice_client: Client):
    match = start(alice)
    services.resign(match, 0, services.CURRENT)
    assert TIPS not in alice_client.get(url(match, "table")).content.decode()


def test_a_first_match_against_a_person_names_no_hint_it_does_not_have(
    alice: User, bob: User, alice_client: Client
):
    match = lobby_match(alice, bob)  # alice plays first
    deal(match)
    page = alice_client.get(url(match, "table")).content.decode()
    assert TIPS in page
    assert 'value="pass"' in page  # her turn: the buttons a Hint would sit beside
    assert url(match, "hint") not in page  # no Hint button at a table between two people
    assert "Hint shows what Bea would do" not in page
