"""The results card of a finished match (issue 41): the table links to it once the match is
over; anyone with the link sees the final score, each hand and the rating change, and no card;
a match still in play, or a token that was not signed for one, has no card."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from django.test import Client

from games import services
from games.results_card.views import card_url
from tests.games.live_helpers import lobby_match, signed_in

from .conftest import ALICE_KNOCKS, BEA_LOOSE, hidden_cards, move, stacked, start, url

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db


def _gin_match(alice: User):  # type: ignore[no-untyped-def]
    """Alice takes 10♣ and goes gin throwing K♦: 105 to 0, the match (to 50) is over."""
    match = start(alice, stacked(ALICE_KNOCKS, BEA_LOOSE, "TC", "2D"), target=50)
    client = signed_in(alice)
    move(client, match, "take_upcard")
    move(client, match, "gin", "KD")
    match.refresh_from_db()
    assert not match.is_active
    return match, client


def test_the_table_links_the_card_once_the_match_is_over(alice: User):
    match, client = _gin_match(alice)
    page = client.get(url(match, "table")).content.decode()
    assert f'href="{card_url(match)}"' in page
    assert "The results card, to share" in page


def test_anyone_with_the_link_sees_the_score_and_each_hand(alice: User):
    match, _client = _gin_match(alice)
    page = Client().get(card_url(match)).content.decode()
    assert "alice won" in page
    assert "<dd>105</dd>" in page and "<dd>0</dd>" in page
    assert "Score by hand" in page and "<td>Gin</td>" in page
    assert 'property="og:title"' in page
    # The hands are over, yet the card shows scores only, never a card.
    assert 'class="card' not in page


def test_it_shows_what_a_rated_match_did_to_the_ratings(alice: User, bob: User):
    from tests.lobby.rating_helpers import challenge_match, play, resign

    match = challenge_match(alice, bob)
    play(match)
    resign(match, 1)
    page = Client().get(card_url(match)).content.decode()
    assert "Ratings" in page and "alice: +" in page and "bob: -" in page


def test_a_match_in_play_has_no_card(alice: User, bob: User):
    match = lobby_match(alice, bob)
    assert Client().get(card_url(match)).status_code == 404
    page = signed_in(alice).get(url(match, "table")).content.decode()
    assert "The results card" not in page
    assert hidden_cards(match)  # the match is in play: its cards stay hidden


def test_a_token_not_signed_for_a_match_finds_nothing(alice: User):
    match, _client = _gin_match(alice)
    assert Client().get(f"/games/results/{match.public_id}/").status_code == 404
    forged = card_url(match).rstrip("/").rsplit(":", 1)[0] + ":AAAA/"
    assert Client().get(forged).status_code == 404


def test_a_resigned_match_says_so(alice: User, bob: User):
    match = lobby_match(alice, bob)
    services.resign(match, 1, services.CURRENT)
    page = Client().get(card_url(match)).content.decode()
    assert "alice won" in page and "resigned" in page and "No hand was finished." in page


def test_it_speaks_the_readers_language(alice: User):
    match, _client = _gin_match(alice)
    client = Client()
    client.cookies["django_language"] = "de"
    page = client.get(card_url(match)).content.decode()
    assert "alice hat gewonnen" in page and "Punkte je Runde" in page and "Teilen" in page
