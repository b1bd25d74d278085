"""POST /games/<id>/act: every move through the view, htmx and plain, and every refusal."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from django.test import Client

from games import services
from games.engine import player_view
from games.models import Match
from games.state_cache import load_state

from .conftest import (
    ALICE_KNOCKS,
    BEA_LOOSE,
    assert_no_leak,
    bea_moves,
    hidden_cards,
    move,
    snapshot,
    stacked,
    start,
    url,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db

PASS = {"type": "pass"}


def _to_draw(match: Match, client: Client) -> None:
    """Both pass the upcard: Alice must draw from the stock."""
    assert move(client, match, "pass").status_code == 302
    bea_moves(match, PASS)


def test_it_passes_the_upcard_and_redirects_back_to_the_table(alice: User, alice_client: Client):
    match = start(alice, stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "TC"))
    response = move(alice_client, match, "pass")
    assert response.status_code == 302
    assert response["Location"] == url(match, "table")
    match.refresh_from_db()
    assert match.version == 1
    page = alice_client.get(url(match, "table")).content.decode()
    assert "Bea is thinking…" in page


def test_it_answers_htmx_with_only_the_changed_regions(alice: User, alice_client: Client):
    match = start(alice, stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "TC"))
    response = move(alice_client, match, "pass", htmx=True)
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="status"' in html and 'hx-swap-oob="true"' in html
    assert "Bea is thinking…" in html
    # Bea is to act: her reply comes on its own (pushed), the page asks for nothing.
    assert "hx-post" not in html.split('id="status"')[1].split("</section>")[0]
    # Nothing about the scores or Bea's hand changed.
    assert 'id="scores"' not in html
    assert 'id="opponent"' not in html
    assert "<html" not in html


def test_it_takes_the_upcard(alice: User, alice_client: Client):
    match = start(alice, stacked(ALICE_KNOCKS, BEA_LOOSE, "TC", "2D"))
    html = move(alice_client, match, "take_upcard", htmx=True).content.decode()
    assert "Your turn: discard a card." in html
    # The taken card cannot go straight back, and the page says why.
    assert "You took 10♣ from the discard pile: it cannot go back this turn." in html
    assert 'value="TC" class="visually-hidden" data-label="10♣" data-after="10" disabled' in html


def test_it_draws_from_the_stock_and_shows_the_deadwood_after_each_discard(
    alice: User, alice_client: Client
):
    match = start(alice, stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "2D"))
    _to_draw(match, alice_client)
    html = move(alice_client, match, "draw_stock", htmx=True).content.decode()
    assert 'id="hand"' in html and 'id="pile"' in html
    assert "Stock · 30 cards" in html
    # Discarding K♦ would leave the 2♦ alone: 2 points; discarding 2♦ leaves 10.
    assert 'data-label="K♦" data-after="2" data-knock' in html
    assert 'data-label="2♦" data-after="10" data-knock' in html
    assert 'name="move" value="knock"' in html


def test_it_draws_from_the_discard_pile(alice: User, alice_client: Client):
    match = start(alice, stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "2D"))
    move(alice_client, match, "pass")
    bea_moves(match, {"type": "take_upcard"}, {"type": "discard", "card": "KS"})
    page = alice_client.get(url(match, "table")).content.decode()
    assert "Bea took the upcard Q♣ and discarded K♠." in page
    assert "Known in Bea's hand:" in page and 'aria-label="queen of clubs"' in page
    response = move(alice_client, match, "draw_discard")
    assert response.status_code == 302
    match.refresh_from_db()
    assert "KS" in player_view(load_state(match), 0)["hand"]


def test_it_discards(alice: User, alice_client: Client):
    match = start(alice, stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "2D"))
    _to_draw(match, alice_client)
    move(alice_client, match, "draw_stock")
    html = move(alice_client, match, "discard", "2D", htmx=True).content.decode()
    assert "Bea is thinking…" in html
    match.refresh_from_db()
    assert player_view(load_state(match), 0)["discard_pile"][-1] == "2D"


def test_it_knocks_and_shows_the_hand_laid_open(alice: User, alice_client: Client):
    match = start(alice, stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "2D"))
    _to_draw(match, alice_client)
    move(alice_client, match, "draw_stock")
    html = move(alice_client, match, "knock", "KD", htmx=True).content.decode()
    assert 'id="result"' in html and 'id="scores"' in html
    assert "Hand 1 is over." in html
    assert "Hand 1: Knock" in html
    assert "You knocked and score 78." in html
    assert "deadwood 2" in html and "deadwood 80" in html
    assert 'value="next_hand"' in html


def test_it_shows_the_layoffs_on_the_knockers_melds(alice: User, alice_client: Client):
    # Bea holds 7♥ and 4♠: they extend Alice's 4-5-6♥ and A-2-3♠ runs.
    bea = "5C JC 3D 9D QD 7H JH 4S 9S KS"
    match = start(alice, stacked(ALICE_KNOCKS, bea, "QC", "2D"))
    _to_draw(match, alice_client)
    move(alice_client, match, "draw_stock")
    html = move(alice_client, match, "knock", "KD", htmx=True).content.decode()
    assert html.count("card black laid-off") + html.count("card red laid-off") == 2
    assert "Laid off on the knocker's melds:" in html
    assert "You knocked and score 64." in html  # 5+10+3+9+10+10+9+10 = 66, minus 2


def test_it_goes_gin(alice: User, alice_client: Client):
    match = start(alice, stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "TC"))
    _to_draw(match, alice_client)
    html = move(alice_client, match, "draw_stock", htmx=True).content.decode()
    assert 'name="move" value="gin"' in html
    html = move(alice_client, match, "gin", "KD", htmx=True).content.decode()
    assert "You went gin and score 105." in html  # 25 + 80


def test_it_goes_big_gin_under_classic_rules(alice: User, alice_client: Client):
    match = start(
        alice, stacked("AS 2S 3S 4H 5H 6H 7C 8C 9C JD", BEA_LOOSE, "QC", "TC"), preset="classic"
    )
    _to_draw(match, alice_client)
    html = move(alice_client, match, "draw_stock", htmx=True).content.decode()
    assert "Big Gin!" not in html  # J♦ is loose
    match2 = start(
        alice, stacked("AS 2S 3S 4H 5H 6H 7C 8C 9C TC", BEA_LOOSE, "QC", "6C"), preset="classic"
    )
    _to_draw(match2, alice_client)
    move(alice_client, match2, "draw_stock")
    html = move(alice_client, match2, "big_gin", htmx=True).content.decode()
    assert "You went Big Gin and score 111." in html  # 31 + 80


def test_it_deals_the_next_hand(alice: User, alice_client: Client):
    match = start(alice, stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "2D"))
    _to_draw(match, alice_client)
    move(alice_client, match, "draw_stock")
    move(alice_client, match, "knock", "KD")
    html = move(alice_client, match, "next_hand", htmx=True).content.decode()
    assert 'id="result"' in html and "hidden" in html.split('id="result"')[1].split(">")[0]
    match.refresh_from_db()
    view = player_view(load_state(match), 0)
    assert view["hand_number"] == 2 and view["dealer"] == 0
    assert_no_leak(html, hidden_cards(match))


def test_it_ends_the_match_with_the_settlement(alice: User, alice_client: Client):
    match = start(alice, stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "2D"), target=50)
    _to_draw(match, alice_client)
    move(alice_client, match, "draw_stock")
    html = move(alice_client, match, "knock", "KD", htmx=True).content.decode()
    assert "You won the match!" in html
    assert "Settlement" in html
    assert "Game bonus" in html and "Boxes (25 per hand won)" in html
    assert "Shutout: the loser never scored." in html and "The net is doubled." in html
    # 78 + 100 + 25 = 203, doubled.
    assert "Net: You by 406." in html
    assert "New match" in html
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED


# --- Refusals ------------------------------------------------------------------------------


def test_it_refuses_someone_elses_match(alice: User, bob_client: Client):
    match = start(alice)
    before = snapshot(match)
    for htmx in (False, True):
        response = move(bob_client, match, "pass", htmx=htmx)
        assert response.status_code == 403
        assert "This is not your match" in response.content.decode()
    assert snapshot(match) == before


def test_it_refuses_a_move_out_of_turn(alice: User, alice_client: Client):
    match = start(alice, stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "2D"))
    move(alice_client, match, "pass")
    before = snapshot(match)
    response = move(alice_client, match, "pass", htmx=True)
    assert response.status_code == 422
    assert "turn" in response.content.decode().lower()
    assert snapshot(match) == before


def test_it_refuses_a_card_not_held(alice: User, alice_client: Client):
    match = start(alice, stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "2D"))
    _to_draw(match, alice_client)
    move(alice_client, match, "draw_stock")
    before = snapshot(match)
    for htmx in (False, True):
        response = move(alice_client, match, "discard", "QH", htmx=htmx)
        assert response.status_code == 422
        assert "You don&#x27;t hold QH." in response.content.decode()
    assert snapshot(match) == before


def test_it_refuses_a_knock_over_the_limit(alice: User, alice_client: Client):
    match = start(alice, stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "2D"))
    _to_draw(match, alice_client)
    move(alice_client, match, "draw_stock")
    before = snapshot(match)
    response = move(alice_client, match, "gin", "KD")
    assert response.status_code == 422
    assert "That is not gin: 2 points of deadwood remain." in response.content.decode()
    assert snapshot(match) == before


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"move": "pass"}, "Every move must say which version"),
        ({"move": "pass", "version": "x"}, "The version of the table must be a whole number."),
        ({"move": "fly", "version": 0}, "There is no move called “fly”."),
        ({"version": 0}, "Which move?"),
        ({"move": "discard", "version": 0}, "Select a card first"),
        ({"move": "discard", "card": "ZZ", "version": 0}, "“ZZ” is not a card."),
    ],
)
def test_it_refuses_malformed_input(
    alice: User, alice_client: Client, data: dict[str, object], message: str
):
    match = start(alice)
    before = snapshot(match)
    for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
        response = alice_client.post(url(match, "act"), data, **headers)
        assert response.status_code == 400
        assert message in response.content.decode()
    assert snapshot(match) == before


def test_it_refuses_a_missing_csrf_token(alice: User, csrf_client: Client):
    match = start(alice)
    before = snapshot(match)
    response = csrf_client.post(url(match, "act"), {"move": "pass", "version": 0})
    assert response.status_code == 403
    assert "CSRF" in response.content.decode()
    assert snapshot(match) == before


def test_it_refuses_a_wrong_csrf_token(alice: User, csrf_client: Client):
    match = start(alice)
    csrf_client.get(url(match, "table"))  # sets the CSRF cookie
    before = snapshot(match)
    response = csrf_client.post(
        url(match, "act"), {"move": "pass", "version": 0}, HTTP_X_CSRFTOKEN="x" * 64
    )
    assert response.status_code == 403
    assert "CSRF" in response.content.decode()
    assert snapshot(match) == before


def test_it_accepts_the_csrf_token_from_the_page(alice: User, csrf_client: Client):
    match = start(alice)
    csrf_client.get(url(match, "table"))
    token = csrf_client.cookies["csrftoken"].value
    # The page's first request: its seed for the deal (docs/fairness.md).
    response = csrf_client.post(
        url(match, "act"),
        {"move": "seed", "seed": "page-seed", "version": 0},
        HTTP_X_CSRFTOKEN=token,
    )
    assert response.status_code == 302


def test_it_refuses_a_stale_version(alice: User, alice_client: Client):
    match = start(alice, stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "2D"))
    _to_draw(match, alice_client)
    before = snapshot(match)
    response = move(alice_client, match, "draw_stock", version=0, htmx=True)
    assert response.status_code == 409
    html = response.content.decode()
    # Seen most often when another tab of the same seat moved (issue 14).
    assert "The table changed in another tab or window" in html
    assert "Nothing was changed." in html
    # The refused page catches up with the real position: every region comes along.
    assert 'id="hand"' in html and 'id="pile"' in html and "Your turn: draw" in html
    assert snapshot(match) == before


def test_it_refuses_a_repeated_submission(alice: User, alice_client: Client):
    match = start(alice, stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "2D"))
    _to_draw(match, alice_client)
    assert move(alice_client, match, "draw_stock", version=2).status_code == 302
    before = snapshot(match)
    response = move(alice_client, match, "draw_stock", version=2)
    assert response.status_code == 409
    assert "Nothing was changed." in response.content.decode()
    assert snapshot(match) == before


def test_it_refuses_moves_in_a_resigned_match(alice: User, alice_client: Client):
    match = start(alice)
    services.resign(match, 0, match.version)
    before = snapshot(match)
    response = move(alice_client, match, "pass")
    assert response.status_code == 409
    assert "This match is over." in response.content.decode()
    assert snapshot(match) == before


def test_it_needs_a_login(alice: User, client: Client):
    match = start(alice)
    response = client.post(url(match, "act"), {"move": "pass", "version": 0})
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]
    assert snapshot(match) == (0, 0)


def test_it_refuses_get(alice: User, alice_client: Client):
    match = start(alice)
    assert alice_client.get(url(match, "act")).status_code == 405
