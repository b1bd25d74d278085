"""Arranging one's hand: Sort cycles melds first / by suit / by rank, a dragged order is kept
for the seat (a reload, another device), a card drawn since goes to the end, and the next hand
starts from the chosen sort. The order changes no rule."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest

from games.models import HandOrder
from tests.seeds import deal

from .conftest import ALICE_KNOCKS, BEA_LOOSE, move, stacked, start, url

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.test import Client

pytestmark = pytest.mark.django_db


def shown_order(html: str) -> list[str]:
    hand = html[html.index('class="hand-cards"') :]
    hand = hand[: hand.index("</ul>")]
    return re.findall(r'<li class="slot[^"]*" data-code="(\w\w)"', hand)


def sort_label(html: str) -> str:
    return re.search(r'name="sort" value="(\w+)"', html).group(1)


def test_it_cycles_melds_first_by_suit_by_rank(alice: User, alice_client: Client):
    match = start(alice, stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "2D"))
    page = alice_client.get(url(match, "table")).content.decode()
    assert sort_label(page) == "suit"
    melds_first = shown_order(page)
    # Each meld together (in the order the best arrangement lists them), the deadwood last.
    assert melds_first[-1] == "KD"
    assert {frozenset(melds_first[i : i + 3]) for i in (0, 3, 6)} == {
        frozenset(("AS", "2S", "3S")),
        frozenset(("4H", "5H", "6H")),
        frozenset(("7C", "8C", "9C")),
    }
    html = alice_client.post(url(match, "order"), {"sort": "suit"}, HTTP_HX_REQUEST="true")
    by_suit = ["7C", "8C", "9C", "KD", "4H", "5H", "6H", "AS", "2S", "3S"]
    assert shown_order(html.content.decode()) == by_suit
    assert sort_label(html.content.decode()) == "rank"
    html = alice_client.post(url(match, "order"), {"sort": "rank"}, HTTP_HX_REQUEST="true")
    by_rank = ["AS", "2S", "3S", "4H", "5H", "6H", "7C", "8C", "9C", "KD"]
    assert shown_order(html.content.decode()) == by_rank
    assert sort_label(html.content.decode()) == "melds"
    # Melds stay marked wherever the cards sit.
    assert html.content.decode().count("in-meld") == 9


def test_it_keeps_a_dragged_order_for_the_seat(alice: User, alice_client: Client):
    match = start(alice, stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "2D"))
    mine = ["KD", "9C", "AS", "4H", "8C", "2S", "5H", "7C", "3S", "6H"]
    response = alice_client.post(
        url(match, "order"), {"order": " ".join(mine)}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 204
    assert shown_order(alice_client.get(url(match, "table")).content.decode()) == mine
    # The card drawn since goes to the end, marked as just drawn until the discard.
    move(alice_client, match, "take_upcard")
    page = alice_client.get(url(match, "table")).content.decode()
    assert shown_order(page) == [*mine, "QC"]
    assert "just-drawn" in page and page.count("just-drawn") == 1
    move(alice_client, match, "discard", "KD")
    page = alice_client.get(url(match, "table")).content.decode()
    assert "just-drawn" not in page


def test_it_starts_the_next_hand_from_the_chosen_sort(alice: User, alice_client: Client):
    match = start(alice, stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "2D"))
    alice_client.post(url(match, "order"), {"sort": "rank"})
    alice_client.post(url(match, "order"), {"order": "KD AS"})
    order = HandOrder.objects.get(seat__match=match, seat__number=0)
    assert order.sort == "rank" and order.cards == ["KD", "AS"] and order.hand_number == 1
    move(alice_client, match, "take_upcard")
    move(alice_client, match, "knock", "KD")
    move(alice_client, match, "next_hand")
    deal(match)
    page = alice_client.get(url(match, "table")).content.decode()
    cards = shown_order(page)
    ranks = "A23456789TJQK"
    assert [ranks.index(c[0]) for c in cards] == sorted(ranks.index(c[0]) for c in cards)


def test_it_refuses_an_order_of_cards_that_are_not_cards(alice: User, alice_client: Client):
    match = start(alice, stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "2D"))
    for bad in ({"order": "AS AS"}, {"order": "ZZ"}, {"sort": "colour"}):
        assert alice_client.post(url(match, "order"), bad).status_code == 400


def test_it_refuses_an_order_from_someone_without_a_seat(alice: User, bob_client: Client):
    match = start(alice, stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "2D"))
    assert bob_client.post(url(match, "order"), {"sort": "rank"}).status_code in (403, 404)
    assert not HandOrder.objects.exists()


def test_the_sort_button_works_without_javascript(alice: User, alice_client: Client):
    match = start(alice, stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "2D"))
    response = alice_client.post(url(match, "order"), {"sort": "suit", "move": "", "version": 0})
    assert response.status_code == 302 and response["Location"] == url(match, "table")
    page = alice_client.get(response["Location"]).content.decode()
    assert shown_order(page) == ["7C", "8C", "9C", "KD", "4H", "5H", "6H", "AS", "2S", "3S"]
