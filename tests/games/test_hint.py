"""GET /games/<id>/hint: Bea's own choice for the player's position, highlighted."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from django.test import Client

from .conftest import ALICE_KNOCKS, BEA_LOOSE, bea_moves, move, snapshot, stacked, start, url

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db


def test_it_suggests_the_discard_and_highlights_it(alice: User, alice_client: Client):
    match = start(alice, stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "TC"))
    move(alice_client, match, "pass")
    bea_moves(match, {"type": "pass"})
    move(alice_client, match, "draw_stock")
    before = snapshot(match)
    response = alice_client.get(url(match, "hint"), HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="hint"' in html and "Bea would:" in html
    assert "K♦" in html.split('id="hint"')[1].split("</section>")[0]
    # The card is preselected and the Gin button lit.
    assert 'value="KD" class="visually-hidden" data-label="K♦" data-after="0"' in html
    assert "data-gin checked" in html
    assert 'value="gin" data-needs="gin" class="gin hinted"' in html
    assert snapshot(match) == before


def test_it_highlights_the_draw_source(alice: User, alice_client: Client):
    match = start(alice, stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "TC"))
    move(alice_client, match, "pass")
    bea_moves(match, {"type": "pass"})
    html = alice_client.get(url(match, "hint"), HTTP_HX_REQUEST="true").content.decode()
    assert '<div class="stock hinted">' in html


def test_it_works_without_javascript(alice: User, alice_client: Client):
    match = start(alice)
    response = alice_client.get(url(match, "hint"))
    assert response.status_code == 302
    assert response["Location"] == url(match, "table") + "?hint=1#hint"
    page = alice_client.get(url(match, "table") + "?hint=1").content.decode()
    assert "Bea would:" in page


def test_it_has_nothing_to_say_on_beas_turn(alice: User, alice_client: Client):
    match = start(alice)
    move(alice_client, match, "pass")
    html = alice_client.get(url(match, "hint"), HTTP_HX_REQUEST="true").content.decode()
    assert "There is nothing to decide right now." in html


def test_it_is_not_found_for_someone_else(alice: User, bob_client: Client):
    match = start(alice)
    assert bob_client.get(url(match, "hint"), HTTP_HX_REQUEST="true").status_code == 404
