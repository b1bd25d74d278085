"""GET /games/<id>/: the table shows the whole position, and nothing a seat may not see."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from django.test import Client

from games import services, state_cache
from games.bea import turns as bea_turns
from tests.seeds import deal

from .conftest import (
    ALICE_KNOCKS,
    BEA_LOOSE,
    assert_no_leak,
    bea_moves,
    hidden_cards,
    move,
    stacked,
    start,
    url,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db


def test_it_shows_the_position(alice: User, alice_client: Client):
    match = start(alice, stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "2D"))
    response = alice_client.get(url(match, "table"))
    assert response.status_code == 200
    page = response.content.decode()
    assert "Your turn: take the upcard Q♣ or pass." in page
    assert "If you pass, Bea may take it." in page
    for region in ("status", "scores", "opponent", "pile", "hand", "actions", "hint", "result"):
        assert f'id="{region}"' in page
    assert "Stock · 31 cards" in page
    assert "Target" in page and ">100<" in page
    assert 'Bea <span class="dealer"' in page  # Bea deals the first hand
    assert "10 cards" in page
    # The hand in melds: three runs marked as melded, K♦ loose, deadwood 10.
    assert page.count("melded") >= 9
    assert "Deadwood 10" in page
    assert 'name="move" value="take_upcard"' in page and 'name="move" value="pass"' in page
    assert 'name="version" value="0"' in page
    assert "Standard rules, playing to 100. Bea plays at level easy." in page


def test_it_never_shows_beas_hand_or_the_stock(alice: User, alice_client: Client):
    match = start(alice)  # a random deal
    page = alice_client.get(url(match, "table")).content.decode()
    assert_no_leak(page, hidden_cards(match))
    # Still hidden after a few moves of hers, whatever she does.
    move(alice_client, match, "pass")
    bea_turns.play_turn(match)
    page = alice_client.get(url(match, "table")).content.decode()
    assert_no_leak(page, hidden_cards(match))


def test_it_shows_the_cards_known_to_be_in_beas_hand(alice: User, alice_client: Client):
    match = start(alice, stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "2D"))
    move(alice_client, match, "pass")
    bea_moves(match, {"type": "take_upcard"}, {"type": "discard", "card": "KS"})
    page = alice_client.get(url(match, "table")).content.decode()
    assert "Known in Bea's hand:" in page
    assert "Bea took the upcard Q♣ and discarded K♠." in page
    assert "Your turn: draw a card." in page
    assert_no_leak(page, hidden_cards(match))


def test_it_shows_the_whole_discard_pile_on_demand(alice: User, alice_client: Client):
    match = start(alice, stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "2D"))
    move(alice_client, match, "pass")
    bea_moves(match, {"type": "take_upcard"}, {"type": "discard", "card": "KS"})
    move(alice_client, match, "draw_stock")
    move(alice_client, match, "discard", "2D")
    bea_moves(match, {"type": "draw", "from": "stock"}, {"type": "discard", "card": "JH"})
    page = alice_client.get(url(match, "table")).content.decode()
    assert "The whole pile (3 cards, top first)" in page
    pile = page.split('class="whole-pile"')[1].split("</details>")[0]
    assert pile.index("jack of hearts") < pile.index("2 of diamonds") < pile.index("king of spades")


def test_it_explains_why_knock_is_disabled(alice: User, alice_client: Client):
    match = start(alice, stacked("AS 2S 3S 4H 5H 6H 7C 9C JD KD", BEA_LOOSE, "QC", "2D"))
    move(alice_client, match, "pass")
    bea_moves(match, {"type": "pass"})
    move(alice_client, match, "draw_stock")
    page = alice_client.get(url(match, "table")).content.decode()
    assert 'value="knock" data-needs="knock" class="knock" disabled' in page
    assert "Knock needs 10 or less deadwood after the discard; your best discard leaves 28." in page


def test_it_shows_the_pause_while_bea_thinks(alice: User, alice_client: Client):
    match = start(alice)
    deal(match)
    move(alice_client, match, "pass")
    page = alice_client.get(url(match, "table")).content.decode()
    assert "Bea is thinking…" in page
    # Her actions are pushed over the table socket; a page without JavaScript reloads itself.
    assert f'ws-connect="/ws/games/{match.public_id}/?lang=en"' in page
    assert '<meta http-equiv="refresh" content="2">' in page.split("<noscript>")[1]
    assert "Reload to see her move" in page
    assert 'name="move"' not in page.split('id="actions"')[1]  # no move of hers to press


def test_it_resumes_the_exact_position(alice: User, alice_client: Client):
    match = start(alice)
    deal(match)
    move(alice_client, match, "pass")
    bea_turns.play_turn(match)
    first = alice_client.get(url(match, "table")).content.decode()
    state_cache.forget_all()  # as after a server restart: the state is rebuilt from the log
    other_device = Client()
    other_device.force_login(alice)
    again = other_device.get(url(match, "table")).content.decode()

    def table(html: str) -> str:
        body = html.split('id="table"')[1]
        return "".join(line for line in body.splitlines() if "csrfmiddlewaretoken" not in line)

    assert table(first) == table(again)


def test_it_is_not_found_for_someone_else(alice: User, bob_client: Client):
    match = start(alice)
    assert bob_client.get(url(match, "table")).status_code == 404
    assert bob_client.get("/games/no-such-match/").status_code == 404


def test_it_needs_a_login(alice: User, client: Client):
    match = start(alice)
    response = client.get(url(match, "table"))
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]


def test_it_shows_a_resigned_match_without_moves(alice: User, alice_client: Client):
    match = start(alice)
    services.resign(match, 0, match.version)
    page = alice_client.get(url(match, "table")).content.decode()
    assert "This match was resigned." in page
    assert "Bea won it." in page
    assert 'name="move"' not in page
    assert "New match" in page


def test_it_shows_the_hand_history(alice: User, alice_client: Client):
    match = start(alice, stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "2D"))
    move(alice_client, match, "pass")
    bea_moves(match, {"type": "pass"})
    move(alice_client, match, "draw_stock")
    move(alice_client, match, "knock", "KD")
    move(alice_client, match, "next_hand")
    page = alice_client.get(url(match, "table")).content.decode()
    assert "1 hand played" in page
    assert "<td>1</td><td>knock</td><td>You</td><td>78</td>" in page
    assert "Hand</dt>\n      <dd>2</dd>" in page


def test_it_says_what_bea_just_did_during_the_players_turn(alice: User, alice_client: Client):
    match = start(alice, stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "2D"))
    move(alice_client, match, "pass")
    bea_moves(match, {"type": "pass"})
    move(alice_client, match, "draw_stock")
    page = alice_client.get(url(match, "table")).content.decode()
    assert "Bea passed the upcard." in page  # still shown after Alice's own draw
    move(alice_client, match, "knock", "KD")
    page = alice_client.get(url(match, "table")).content.decode()
    assert "Bea passed the upcard." not in page  # the hand ended on Alice's move
