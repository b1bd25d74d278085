"""Replays of finished hands (games.records.replays): the page and its JSON, for the players and the
match's watchers only, only once a hand is over, with Bea's notes stored on the first read; and
never a card of the hand in play, nor of the stock a finished hand never reached."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import pytest
from django.test import Client
from django.urls import reverse

from games import access, services
from games.engine import ALL_CARDS
from games.local import play as local
from games.models import HandReview, Match
from games.records import replays
from games.state_cache import load_state
from tests.api.conftest import Api, token_for

from .conftest import ALICE_KNOCKS, BEA_LOOSE, assert_no_leak, hidden_cards, stacked, start
from .live_helpers import lobby_match, shown_cards, signed_in
from .test_private import both_connected, guest_joins, hosted_by

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db

DECK = stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "2D")
# Hand 1 of DECK as played by ``first_hand``: alice takes Q♣ and throws K♦ (a knock with 10 was
# there), bob draws 2♦ and throws K♠, alice draws A♣ (the first card of the stock that the
# deck does not name) and knocks with it, throwing Q♣.
FIRST_HAND = (
    (0, {"type": "take_upcard"}),
    (0, {"type": "discard", "card": "KD"}),
    (1, {"type": "draw", "from": "stock"}),
    (1, {"type": "discard", "card": "KS"}),
    (0, {"type": "draw", "from": "stock"}),
    (0, {"type": "knock", "card": "QC"}),
)
# Every card anyone saw in that hand: the deal, the upcard and the two stock cards drawn.
SEEN_IN_HAND_1 = set(DECK[:23]) | {"AC"}
NOTE = "Could have knocked with 10 (throwing K♦) and scored 70."


def play(match: Match, moves: Any) -> None:
    for seat, action in moves:
        match.refresh_from_db()
        services.submit(match, seat, action, match.version)


def first_hand(match: Match) -> None:
    play(match, FIRST_HAND)
    assert load_state(match).phase == "hand_over"


def page(match: Match, hand: int, move: int | None = None) -> str:
    path = reverse("games:replay", args=[match.public_id, hand])
    return path if move is None else f"{path}?move={move}"


def api_path(match: Match, hand: int) -> str:
    return f"/matches/{match.public_id}/hands/{hand}/replay"


@pytest.fixture
def lobby(alice: User, bob: User) -> Match:
    return lobby_match(alice, bob, deck=DECK)


def test_it_replays_a_finished_hand_for_both_players_and_a_watcher(
    lobby: Match, alice: User, bob: User, carol: User
):
    first_hand(lobby)
    for user in (alice, bob, carol):  # carol may watch any lobby match
        response = signed_in(user).get(page(lobby, 1))
        assert response.status_code == 200, user
        html = response.content.decode()
        assert "The deal: bob dealt; Q♣ was turned up." in html
        assert "alice discarded K♦" in html and NOTE in html  # beside the move in the list
        assert "alice knocked, discarding Q♣" in html
    # At the deal both hands are face up: alice's three runs and bob's loose cards.
    html = signed_in(carol).get(page(lobby, 1)).content.decode()
    assert shown_cards(html, ALICE_KNOCKS) == ALICE_KNOCKS.split()
    assert shown_cards(html, BEA_LOOSE) == BEA_LOOSE.split()
    assert 'aria-current="step"' in html and 'id="move-0"' in html


def test_a_link_opens_the_replay_at_its_move(lobby: Match, alice: User):
    first_hand(lobby)
    client = signed_in(alice)
    at_two = client.get(page(lobby, 1, 2)).content.decode()
    assert "Move 2 of 6: alice discarded K♦." in at_two
    # The note beside the move and on the board; the previous and next moves are one step away.
    assert at_two.count(NOTE) == 2
    assert f'href="{page(lobby, 1, 1)}"' in at_two and f'href="{page(lobby, 1, 3)}"' in at_two
    last = client.get(page(lobby, 1, 6)).content.decode()
    assert "Move 6 of 6: alice knocked, discarding Q♣." in last
    # The result laid open: alice's A♣ against bob's 72, nothing laid off.
    assert "alice knocked and scores 71." in last
    assert 'id="replay-next" class="button" aria-disabled="true"' in last
    # Out of range: the nearest position.
    assert "Move 6 of 6" in client.get(page(lobby, 1, 99)).content.decode()
    for junk in ("x", "-1", "²", "9" * 5000):
        assert "The deal:" in client.get(page(lobby, 1) + f"?move={junk}").content.decode()


def test_htmx_gets_the_stage_and_the_position_line(lobby: Match, alice: User):
    first_hand(lobby)
    html = signed_in(alice).get(page(lobby, 1, 3), HTTP_HX_REQUEST="true").content.decode()
    assert html.lstrip().startswith('<div id="replay-stage"') and "<html" not in html
    assert 'id="replay-position"' in html and 'hx-swap-oob="innerHTML"' in html
    assert "Move 3 of 6: bob drew 2♦ from the stock." in html


def test_a_hand_in_play_an_unknown_hand_and_a_stranger_get_404(
    lobby: Match, alice: User, bob: User
):
    client = signed_in(alice)
    api = Api(token_for(alice))
    play(lobby, FIRST_HAND[:3])  # hand 1 in play, bob to discard
    for hand in (0, 1, 2, 9):
        assert client.get(page(lobby, hand)).status_code == 404
        assert api.get(api_path(lobby, hand)).status_code == 404
    assert not HandReview.objects.exists()  # nothing computed for a hand in play
    play(lobby, FIRST_HAND[3:])
    play(lobby, [(1, {"type": "next_hand"})])  # hand 2 in play
    assert client.get(page(lobby, 1)).status_code == 200
    assert client.get(page(lobby, 2)).status_code == 404
    assert api.get(api_path(lobby, 2)).status_code == 404
    assert list(HandReview.objects.values_list("hand_number", flat=True)) == [1]
    # Without an account a lobby match asks to sign in first.
    response = Client().get(page(lobby, 1))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_the_hand_in_play_leaks_from_no_replay(lobby: Match, alice: User, carol: User):
    first_hand(lobby)
    play(lobby, [(1, {"type": "next_hand"})])
    for user in (alice, carol):
        client = signed_in(user)
        refused = client.get(page(lobby, 2))
        assert refused.status_code == 404
        assert_no_leak(refused.content.decode(), hidden_cards(lobby, 0))
        html = client.get(page(lobby, 1)).content.decode()
        # Only cards that hand 1 showed: never the rest of its stock, whatever hand 2 holds.
        assert set(shown_cards(html, list(ALL_CARDS))) <= SEEN_IN_HAND_1
        replay = Api(token_for(user)).get(api_path(lobby, 1)).content.decode()
        assert {c for c in ALL_CARDS if f'"{c}"' in replay} <= SEEN_IN_HAND_1
        assert lobby.seed not in html and lobby.seed not in replay


def test_the_table_links_each_finished_hand_to_its_replay(lobby: Match, alice: User):
    first_hand(lobby)
    client = signed_in(alice)
    table = client.get(reverse("games:table", args=[lobby.public_id])).content.decode()
    assert table.count(f'href="{page(lobby, 1)}"') == 2  # the result and the hands played
    play(lobby, [(1, {"type": "next_hand"})])
    table = client.get(reverse("games:table", args=[lobby.public_id])).content.decode()
    assert f'href="{page(lobby, 1)}"' in table and page(lobby, 2) not in table


def test_the_profile_links_the_replays_of_each_match(lobby: Match, alice: User):
    first_hand(lobby)
    profile = signed_in(alice).get(reverse("lobby:player", args=["alice"])).content.decode()
    assert f'href="{page(lobby, 1)}"' in profile


def test_the_notes_are_stored_on_the_first_read_and_read_back(lobby: Match, alice: User):
    first_hand(lobby)
    assert not HandReview.objects.exists()  # a hand's end computes nothing
    client = signed_in(alice)
    client.get(page(lobby, 1))
    review = HandReview.objects.get(match=lobby, hand_number=1)
    assert review.notes[2][0]["code"] == "knock_passed"
    # Read back, not computed again: a stored note is what the page shows.
    review.notes[2] = [{"code": "gin_passed", "card": "KD"}]
    review.save()
    html = client.get(page(lobby, 1, 2)).content.decode()
    assert "Gin was there (throwing K♦) and was passed up." in html and NOTE not in html
    assert HandReview.objects.count() == 1


def test_the_api_serves_the_same_replay(lobby: Match, alice: User, carol: User):
    first_hand(lobby)
    for user in (alice, carol):
        response = Api(token_for(user)).get(api_path(lobby, 1))
        assert response.status_code == 200
        replay = json.loads(response.content)
        assert replay["hand_number"] == 1 and replay["dealer"] == 1
        assert [p["name"] for p in replay["players"]] == ["alice", "bob"]
        moves = replay["moves"]
        assert len(moves) == 7 and moves[0]["action"] is None and moves[0]["seat"] is None
        assert sorted(moves[0]["hands"][0]) == sorted(ALICE_KNOCKS.split())
        assert moves[0]["stock_count"] == 31 and moves[0]["discard_pile"] == ["QC"]
        assert moves[2]["action"] == {"type": "discard", "card": "KD"}
        assert moves[2]["notes"][0]["code"] == "knock_passed"
        assert moves[2]["notes"][0]["text"] == NOTE
        assert "2D" in moves[3]["hands"][1] and "2D" not in moves[2]["hands"][1]
        assert moves[6]["deadwood"][0] == 1
        assert replay["result"]["kind"] == "knock" and replay["result"]["points"] == 71
        assert replay["scores"] == [71, 0]


def test_a_match_against_bea_is_only_for_its_player(alice: User, bob: User):
    match = start(alice, DECK)
    play(match, [(0, {"type": "take_upcard"}), (0, {"type": "knock", "card": "KD"})])
    assert signed_in(alice).get(page(match, 1)).status_code == 200
    assert signed_in(bob).get(page(match, 1)).status_code == 404
    assert Client().get(page(match, 1)).status_code == 404
    assert Api(token_for(bob)).get(api_path(match, 1)).status_code == 404
    assert Api(token_for(alice)).get(api_path(match, 1)).status_code == 200


@pytest.mark.parametrize("watchers", [False, True])
def test_a_private_table_is_for_its_players_and_watchers_it_allows(
    alice: User, carol: User, watchers: bool
):
    table, match = hosted_by(alice, allow_spectators=watchers)
    guest = guest_joins(table)
    both_connected(match)
    first_hand(match)
    assert signed_in(alice).get(page(match, 1)).status_code == 200
    assert guest.get(page(match, 1)).status_code == 200  # by the seat key in its cookie
    expected = 200 if watchers else 404
    assert signed_in(carol).get(page(match, 1)).status_code == expected
    assert Client().get(page(match, 1)).status_code == expected
    assert Api(token_for(carol)).get(api_path(match, 1)).status_code == expected


def test_pass_and_play_is_for_the_device_that_owns_it(alice: User, bob: User):
    match = local.start(None, "the-owner-key", "Ann", "Ben", deck=DECK)
    first_hand(match)
    owner = Client()
    owner.cookies[access.OWNER_COOKIE] = access.key_cookie_value(
        access.OWNER_COOKIE, "the-owner-key"
    )
    html = owner.get(page(match, 1, 2)).content.decode()
    assert "Move 2 of 6: Ann discarded K♦." in html and NOTE in html
    assert Client().get(page(match, 1)).status_code == 404
    assert signed_in(bob).get(page(match, 1)).status_code == 404


def test_finished_hands_are_the_ones_with_a_record(lobby: Match):
    assert replays.finished_hands(lobby) == []
    first_hand(lobby)
    play(lobby, [(1, {"type": "next_hand"})])
    assert replays.finished_hands(lobby) == [1]
