"""POST /games/<id>/bea: Bea's reply, one paced action per htmx request."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from django.test import Client

from games import services

from .conftest import ALICE_KNOCKS, BEA_LOOSE, move, snapshot, stacked, start, url

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db


def test_it_lets_bea_make_one_move_per_htmx_request(alice: User, alice_client: Client):
    match = start(alice, stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "2D"))
    move(alice_client, match, "pass")
    response = alice_client.post(url(match, "bea"), {"version": 1}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    match.refresh_from_db()
    assert match.version == 2
    html = response.content.decode()
    assert 'id="status"' in html and 'hx-swap-oob="true"' in html
    # Bea's loose hand does not want Q♣: she passes, and it is Alice's draw.
    assert "Bea passed the upcard." in html
    assert "Your turn: draw from the stock." in html
    assert "load delay" not in html


def test_it_chains_while_bea_is_to_act(alice: User, alice_client: Client):
    match = start(alice, stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "2D"))
    move(alice_client, match, "pass")
    services.submit(match, 1, {"type": "pass"}, 1)
    move(alice_client, match, "draw_stock")
    move(alice_client, match, "discard", "2D")
    response = alice_client.post(url(match, "bea"), {"version": 4}, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    # She has drawn; her discard follows after another pause.
    assert "Bea is thinking…" in html
    assert 'hx-trigger="load delay:900ms"' in html
    assert '{"version": 5}' in html


def test_it_finishes_beas_turn_without_javascript(alice: User, alice_client: Client):
    match = start(alice, stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "2D"))
    move(alice_client, match, "pass")
    services.submit(match, 1, {"type": "pass"}, 1)
    move(alice_client, match, "draw_stock")
    move(alice_client, match, "discard", "2D")
    response = alice_client.post(url(match, "bea"), {"version": 4})
    assert response.status_code == 302
    assert not services.bea_to_move(match)
    match.refresh_from_db()
    assert match.version == 6


def test_it_does_nothing_when_it_is_not_beas_turn(alice: User, alice_client: Client):
    match = start(alice)
    before = snapshot(match)
    response = alice_client.post(url(match, "bea"), {"version": 0}, HTTP_HX_REQUEST="true")
    assert response.status_code == 204
    assert snapshot(match) == before


def test_it_brings_a_stale_page_up_to_date(alice: User, alice_client: Client):
    match = start(alice)
    response = alice_client.post(url(match, "bea"), {"version": 7}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    for region in ("status", "scores", "hand", "actions"):
        assert f'id="{region}"' in response.content.decode()


def test_it_refuses_someone_else(alice: User, bob_client: Client):
    match = start(alice)
    move(Client(), match, "pass")  # anonymous: refused, nothing happens
    before = snapshot(match)
    response = bob_client.post(url(match, "bea"), {"version": 0})
    assert response.status_code == 403
    assert "This is not your match" in response.content.decode()
    assert snapshot(match) == before
