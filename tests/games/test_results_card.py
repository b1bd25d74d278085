"""The results card of a finished match (issue 41): the table links to it once the match is
over; anyone with the link sees the final score, each hand and the rating change, and no card;
a match still in play, or a token that was not signed for one, has no card."""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING

import pytest
from django.core.cache import cache
from django.test import Client

from games import services
from games.engine import ALL_CARDS, display
from games.results_card import image
from games.results_card.links import card_url
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


def _png_size(png: bytes) -> tuple[int, int]:
    """A PNG's width and height, from its header (IHDR)."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and png[12:16] == b"IHDR"
    return struct.unpack(">II", png[16:24])


def _image_url(match) -> str:  # type: ignore[no-untyped-def]
    return card_url(match) + "card.png"


def test_the_card_is_also_a_picture_at_its_signed_link(alice: User):
    match, _client = _gin_match(alice)
    answer = Client().get(_image_url(match))
    assert answer.status_code == 200 and answer["Content-Type"] == "image/png"
    assert _png_size(answer.content) == (1200, 630)
    # The card's page names it for link previews.
    page = Client().get(card_url(match)).content.decode()
    assert f'property="og:image" content="http://testserver{_image_url(match)}"' in page
    assert 'data-image="http://testserver' in page


def test_a_tampered_or_unfinished_picture_link_finds_nothing(alice: User, bob: User):
    match, _client = _gin_match(alice)
    token = card_url(match).rstrip("/").rsplit("/", 1)[1]
    tampered = token[:-1] + ("A" if token[-1] != "A" else "B")
    answer = Client().get(f"/games/results/{tampered}/card.png")
    assert answer.status_code == 404 and answer["Content-Type"] != "image/png"
    assert Client().get(f"/games/results/{match.public_id}/card.png").status_code == 404
    in_play = lobby_match(alice, bob)
    assert Client().get(_image_url(in_play)).status_code == 404


@pytest.fixture
def written(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every line of text the picture draws, as it draws it (a fresh picture: none cached)."""
    lines: list[str] = []
    drawn = image.Canvas.text

    def text(canvas, x, y, words, *args, **kwargs):  # type: ignore[no-untyped-def]
        lines.append(words)
        return drawn(canvas, x, y, words, *args, **kwargs)

    monkeypatch.setattr(image.Canvas, "text", text)
    cache.clear()
    return lines


def test_the_picture_writes_what_the_card_shows_and_no_card(alice: User, written: list[str]):
    match, _client = _gin_match(alice)
    Client().get(_image_url(match), HTTP_ACCEPT_LANGUAGE="de")
    assert "alice hat gewonnen" in written and "105" in written and "Punkte je Runde" in written
    # Scores, names and the hands' kinds: not one card of any hand (K♦ went out, 10♣ came in).
    labels = {display(code) for code in ALL_CARDS}
    assert not [words for words in written if any(label in words for label in labels)]


def test_the_picture_of_a_resigned_match_says_so(alice: User, bob: User, written: list[str]):
    match = lobby_match(alice, bob)
    services.resign(match, 1, services.CURRENT)
    assert Client().get(_image_url(match)).status_code == 200
    assert "alice won" in written and "No hand was finished." in written
    assert any(" · resigned · " in words for words in written)


def test_a_link_made_before_links_were_timeless_still_opens_the_card(alice: User):
    from django.core import signing

    from games.results_card.links import SALT

    match, _client = _gin_match(alice)
    assert card_url(match) == card_url(match)
    old = signing.dumps(match.public_id, salt=SALT, compress=True)
    assert Client().get(f"/games/results/{old}/").status_code == 200
