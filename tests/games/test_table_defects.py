"""The small defects of issue 14, point 6, one test each (the browser ones are in
tests/browser/test_table_details.py)."""

from __future__ import annotations

import random
import re
from typing import TYPE_CHECKING

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

from games import services
from games.ai.explain import explain
from games.engine import PRESETS, apply, new_match, player_view
from games.models import Offer
from games.private import tables as private
from games.table.results import settlement as settlement_rows

from .conftest import ALICE_KNOCKS, BEA_LOOSE, move, stacked, start, url
from .live_helpers import lobby_match

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def test_it_hides_the_opponent_panel_once_the_hand_is_over(alice: User, alice_client: Client):
    match = start(alice, stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "2D"))
    assert "10 cards" in alice_client.get(url(match, "table")).content.decode()
    move(alice_client, match, "take_upcard")
    move(alice_client, match, "knock", "KD")
    page = alice_client.get(url(match, "table")).content.decode()
    assert re.search(r'<section id="opponent" class="region opponent" hidden', page)
    assert "10 cards" not in page


def test_it_explains_the_star_beside_the_hand_winner(alice: User, alice_client: Client):
    match = start(alice, stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "2D"))
    move(alice_client, match, "take_upcard")
    page = move(alice_client, match, "knock", "KD", htmx=True).content.decode()
    assert page.count("★ won the hand") == 1


def test_it_leaves_out_the_boxes_row_when_boxes_score_nothing():
    names = {0: "Alice", 1: "Bea"}
    settlement = {
        "winner": 0,
        "loser": 1,
        "scores": [104, 30],
        "game_bonus": 100,
        "box_bonus": 0,
        "boxes": [0, 0],
        "tallies": [204, 30],
        "hands_won": [4, 2],
        "shutout": False,
        "doubled": False,
        "net": 174,
    }
    rows = [row[0] for row in settlement_rows({"settlement": settlement}, names)["rows"]]
    assert not any(str(label).startswith("Boxes") for label in rows)
    settlement.update(box_bonus=25, boxes=[100, 50])
    rows = [row[0] for row in settlement_rows({"settlement": settlement}, names)["rows"]]
    assert "Boxes (25 per hand won)" in rows


def test_it_writes_an_open_seat_in_lower_case_inside_a_sentence(alice: User):
    table, match, _key = private.open_table(alice, deck=stacked(ALICE_KNOCKS, BEA_LOOSE, "QC"))
    client = Client()
    client.force_login(alice)
    page = client.get(url(match, "table"), follow=True).content.decode()
    # While the seat is empty the status says what is awaited (issue 23), not "Your turn".
    assert "Waiting for your friend to open the invitation link." in page
    assert "Once they are here, you start: take the upcard Q♣ or pass." in page
    assert "Your turn" not in page
    assert "for Your friend" not in page


def test_it_offers_a_way_on_after_a_resignation(alice: User, bob: User, alice_client: Client):
    match = lobby_match(alice, bob)
    services.resign(match, 1, match.version)
    page = alice_client.get(url(match, "table")).content.decode()
    assert "Back to the lobby" in page and 'href="/lobby/"' in page


def test_it_lets_a_declined_offer_go_after_a_while(
    alice: User, bob: User, alice_client: Client, bob_client: Client
):
    match = lobby_match(alice, bob)
    alice_client.post(url(match, "offer"), {"kind": "restart", "version": 0}, **HTMX)
    offer = Offer.objects.get(match=match)
    bob_client.post(
        url(match, "answer"), {"offer": offer.pk, "answer": "decline", "version": 0}, **HTMX
    )
    page = alice_client.get(url(match, "table")).content.decode()
    found = re.search(r'<p class="answered" data-hide-after="([^"]+)">bob declined', page)
    assert found, "the note carries when table.js hides it"


def test_it_offers_the_hint_only_against_bea(
    alice: User, bob: User, alice_client: Client, bob_client: Client
):
    against_bea = start(alice, stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "2D"))
    assert (
        f'href="{url(against_bea, "hint")}"'
        in alice_client.get(url(against_bea, "table")).content.decode()
    )
    between_people = lobby_match(bob, alice)
    page = bob_client.get(url(between_people, "table")).content.decode()
    assert "/hint" not in page and ">Hint<" not in page
    assert bob_client.get(url(between_people, "hint"), **HTMX).status_code == 404
    assert (
        "Bea would" not in bob_client.get(url(between_people, "table") + "?hint=1").content.decode()
    )


def test_it_answers_favicon_ico_with_the_icon(client: Client):
    response = client.get("/favicon.ico")
    assert response.status_code == 301
    assert response["Location"].endswith(".svg")
    assert finders.find("favicon.svg")


def test_beas_hint_names_the_players_opponent_not_the_opponent():
    """The hint speaks to the player: "your opponent" is the one across the table (Bea), never
    "the opponent", which read as Bea's opponent."""
    reasons = []
    for seed in range(12):
        state = new_match(PRESETS["standard"], seed=seed)
        rng = random.Random(seed)
        for _step in range(40):
            seat = state.to_act
            if seat is None:
                break
            view = player_view(state, seat)
            legal = view["legal_actions"]
            if seat == 0:
                reasons += [explain(view, a) for a in legal if a["type"] == "discard"]
            plain = [a for a in legal if a["type"] not in ("knock", "gin", "big_gin")]
            state = apply(state, seat, rng.choice(plain or legal))
    assert reasons
    assert not [r for r in reasons if "the opponent" in r]
    assert any("your opponent" in r for r in reasons)
