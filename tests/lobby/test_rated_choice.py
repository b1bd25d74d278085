"""The lobby's forms offer rated or casual; the rows say which, with the players' ratings."""

from __future__ import annotations

import pytest
from django.test import Client

from lobby.models import Challenge, Seek

from .lobby_helpers import HTMX, online, signed_in
from .rating_helpers import rated_history

pytestmark = pytest.mark.django_db


def test_the_forms_offer_casual_first_and_rated(alice, bob):
    online(alice, bob)
    page = signed_in(Client(), alice).get("/lobby/").content.decode()
    assert page.count('<select name="rated"') == 2  # the challenge to bob and the seek
    assert (
        '<option value="">Casual</option>' in page and '<option value="on">Rated</option>' in page
    )
    profile = signed_in(Client(), alice).get("/players/bob/").content.decode()
    assert '<select name="rated"' in profile


def test_a_rated_challenge_from_the_page_is_rated_and_says_so(alice, bob):
    online(alice, bob)
    rated_history(alice, bob, [1])
    form = {"to": "bob", "preset": "standard", "target": "100", "rated": "on"}
    assert signed_in(Client(), alice).post("/lobby/challenges/", form, **HTMX).status_code == 200
    assert Challenge.objects.get().rated
    page = signed_in(Client(), bob).get("/lobby/").content.decode()
    shown = page.split('data-incoming="', 1)[1].split("</li>", 1)[0]
    assert "Standard to 100, rated" in shown
    assert '<span class="rating" title="alice\'s rating in these rules">1662?</span>' in shown


def test_a_casual_seek_from_the_page_is_casual(alice, bob):
    online(alice, bob)
    form = {"preset": "classic", "target": "50", "rated": ""}
    signed_in(Client(), alice).post("/lobby/seeks/", form, **HTMX)
    assert not Seek.objects.get().rated
    page = signed_in(Client(), bob).get("/lobby/").content.decode()
    row = page.split('data-seek="', 1)[1].split("</li>", 1)[0]
    assert "Classic to 50." in row and "rated" not in row
    assert '<span class="rating" title="alice\'s rating in these rules">1500?</span>' in row


def test_the_players_list_shows_each_standard_rating(alice, bob):
    online(alice, bob)
    rated_history(bob, alice, [1])
    page = signed_in(Client(), alice).get("/lobby/").content.decode()
    row = page.split('data-player="bob"', 1)[1].split("</li>", 1)[0]
    assert '<span class="rating" title="Standard rating">1662?</span>' in row  # one win
