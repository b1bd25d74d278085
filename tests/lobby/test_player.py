from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.models import Match, Seat
from games.services import SeatSpec, create_match, ruleset, submit

pytestmark = pytest.mark.django_db

# Seat 0 is dealt nine spades in a run and a king; the upcard completes the run, so seat 0 takes
# it and goes gin at once. Seat 1 holds 79 points of unmatched deadwood.
GINNER = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "KD"]
LOSER = ["KC", "QH", "JD", "TC", "9H", "8D", "7C", "6H", "5D", "4C"]
UPCARD = "TS"


def _stacked_deck() -> list[str]:
    deck = [*GINNER, *LOSER, UPCARD]
    every = [rank + suit for suit in "SHDC" for rank in "A23456789TJQK"]
    return deck + [card for card in every if card not in deck]


def _play_a_gin_match(winner: User, loser: User) -> Match:
    """A real match to 50 through the one door: the winner goes gin on the first turn."""
    match = create_match(
        Match.Kind.LOBBY,
        ruleset("standard", 50),
        (SeatSpec(Seat.Kind.PLAYER, user=winner), SeatSpec(Seat.Kind.PLAYER, user=loser)),
        deck=_stacked_deck(),
    )
    submit(match, 0, {"type": "take_upcard"}, match.version)
    submit(match, 0, {"type": "gin", "card": "KD"}, match.version)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    return match


def _stats(page: str) -> dict[str, int]:
    found = re.findall(r'data-stat="(\w+)">(\d+)<', page)
    return {name: int(value) for name, value in found}


def test_it_shows_a_player_to_anonymous_visitors(client: Client, alice: User) -> None:
    alice.profile.display_name = "Queen of Spades"
    alice.profile.save()
    response = client.get("/players/alice/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "Queen of Spades" in page
    assert "Member since" in page
    assert _stats(page) == {
        "matches_played": 0,
        "matches_won": 0,
        "hands_won": 0,
        "gins": 0,
        "undercuts": 0,
        "best_hand": 0,
    }


def test_it_404s_for_an_unknown_player(client: Client) -> None:
    assert client.get("/players/nobody/").status_code == 404


def test_it_counts_finished_matches(client: Client, alice: User, bob: User) -> None:
    _play_a_gin_match(alice, bob)
    _play_a_gin_match(bob, alice)
    _play_a_gin_match(alice, bob)

    alice_stats = _stats(client.get("/players/alice/").content.decode())
    assert alice_stats == {
        "matches_played": 3,
        "matches_won": 2,
        "hands_won": 2,
        "gins": 2,
        "undercuts": 0,
        "best_hand": 104,  # gin bonus 25 + the loser's 79 deadwood
    }
    bob_stats = _stats(client.get("/players/bob/").content.decode())
    assert bob_stats["matches_played"] == 3
    assert bob_stats["matches_won"] == 1
    assert bob_stats["gins"] == 1


def test_it_leaves_out_matches_in_progress(client: Client, alice: User, bob: User) -> None:
    create_match(
        Match.Kind.LOBBY,
        ruleset("standard", 50),
        (SeatSpec(Seat.Kind.PLAYER, user=alice), SeatSpec(Seat.Kind.PLAYER, user=bob)),
    )
    assert _stats(client.get("/players/alice/").content.decode())["matches_played"] == 0


def _body(client: Client, url: str) -> str:
    """The page below the header, where the nav's own Settings link does not count."""
    return client.get(url).content.decode().split("</header>", 1)[1]


def test_it_links_my_own_profile_to_settings(client: Client, alice: User, bob: User) -> None:
    client.force_login(alice)
    assert 'href="/settings/"' in _body(client, "/players/alice/")
    assert 'href="/settings/"' not in _body(client, "/players/bob/")
