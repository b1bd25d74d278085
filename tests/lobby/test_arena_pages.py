"""The arena pages: the list on the home page and in the lobby with a countdown, an arena's page
with its clock, who plays whom and the standings, its buttons, the podium at the end, a
player's arenas on their profile, and the arena's time and the player's place at the table;
in English and German."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from lobby.arena import schedule, service
from lobby.arena.models import ArenaPlayer
from tests.lobby.arena_helpers import arena, match_of, win
from tests.lobby.correspondence_helpers import Clock
from tests.lobby.lobby_helpers import HTMX

pytestmark = pytest.mark.django_db


def _text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_the_home_page_and_the_lobby_list_the_arenas_with_a_countdown(
    clock: Clock, client: Client, alice: User
) -> None:
    arena(starts_in=90, name="x")
    page = client.get("/").content.decode()
    assert "Standard to 100, 30-minute arena" in _text(page)
    assert "Starts in 1:30:00" in _text(page)
    # Live: the home page's list has a socket of its own, the countdowns tick (arena.js).
    assert 'ws-connect="/ws/arenas/"' in page and "js/arena.js" in page
    client.force_login(alice)
    lobby = client.get("/lobby/").content.decode()
    assert "Starts in 1:30:00" in _text(lobby)
    assert "js/arena.js" in lobby


def test_the_arena_page_in_german(clock: Clock, client: Client, alice: User) -> None:
    made = arena(starts_in=5)
    alice.profile.language = "de"
    alice.profile.save()
    client.force_login(alice)
    client.cookies["django_language"] = "de"
    page = _text(
        client.get(f"/arenas/{made.public_id}/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    )
    assert "Beginnt in 5:00" in page
    assert "Der Arena beitreten" in page


def test_join_pause_and_come_back_from_the_page(
    clock: Clock, client: Client, alice: User, bob: User
) -> None:
    made = arena()
    client.force_login(alice)
    answer = client.post(f"/arenas/{made.public_id}/join", **HTMX)
    assert answer.status_code == 200
    assert "You are in." in _text(answer.content.decode())
    answer = client.post(f"/arenas/{made.public_id}/pause", **HTMX)
    assert "Paused" in _text(answer.content.decode())
    assert ArenaPlayer.objects.get(user=alice).paused
    # Pausing twice is refused and changes nothing.
    again = client.post(f"/arenas/{made.public_id}/pause", **HTMX)
    assert again.status_code == 409
    service.join(bob, made)
    answer = client.post(f"/arenas/{made.public_id}/join", **HTMX)
    # Back, and paired at once: the page goes to the table.
    assert answer.status_code == 204
    assert answer["HX-Redirect"] == f"/games/{match_of(alice).public_id}/"


def test_the_page_shows_who_plays_whom_and_the_standings(
    clock: Clock, client: Client, alice: User, bob: User, carol: User
) -> None:
    made = arena()
    service.join(alice, made)
    service.join(bob, made)
    win(alice)
    service.join(carol, made)
    page = _text(client.get(f"/arenas/{made.public_id}/").content.decode())
    assert "Playing now" in page
    assert re.search(r"1 alice 2 1", page)
    assert re.search(r"2 (bob|carol) 0 0", page)
    assert "Time left: 30:00" in page


def test_the_podium_and_the_profile_after_the_end(
    clock: Clock, client: Client, alice: User, bob: User
) -> None:
    made = arena()
    service.join(alice, made)
    service.join(bob, made)
    win(alice)
    clock.advance(minutes=31)
    service.sweep()
    page = _text(client.get(f"/arenas/{made.public_id}/").content.decode())
    assert "Podium" in page
    assert re.search(r"alice 2 points, performance \d+", page)
    profile = _text(client.get("/players/alice/").content.decode())
    assert "place 1, 2 points" in profile


def test_the_table_says_the_time_left_and_the_place(
    clock: Clock, client: Client, alice: User, bob: User
) -> None:
    made = arena()
    service.join(alice, made)
    service.join(bob, made)
    clock.advance(minutes=10)
    client.force_login(alice)
    page = _text(client.get(f"/games/{match_of(alice).public_id}/").content.decode())
    assert "Arena: 20 minutes left, you are number" in page


def test_a_private_arena_from_the_form(clock: Clock, client: Client, alice: User) -> None:
    client.force_login(alice)
    answer = client.post(
        "/arenas/new",
        {"name": "Club", "preset": "standard", "target": "50", "minutes": "30", "starts_in": "5"},
    )
    assert answer.status_code == 302
    made = schedule.Arena.objects.get()
    assert answer["Location"] == f"/arenas/{made.public_id}/"
    bad = client.post(
        "/arenas/new", {"name": "", "preset": "standard", "target": "50", "minutes": "30"}
    )
    assert bad.status_code == 400
    assert schedule.Arena.objects.count() == 1
