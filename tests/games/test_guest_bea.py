"""Playing Bea without an account: one click from the home page, a guest key in an HttpOnly
cookie (only its hash stored), the match found again in the same browser and by nobody else,
kept by the account signed up from that browser, removed after 30 idle days."""

from __future__ import annotations

import hashlib
from datetime import timedelta
from typing import TYPE_CHECKING

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from games.access import GUEST_COOKIE, KEY_MAX_AGE, key_cookie_value, new_key
from games.bea import guests
from games.models import Match, Seat
from tests.seeds import deal

from .conftest import (
    ALICE_KNOCKS,
    BEA_LOOSE,
    assert_no_leak,
    bea_moves,
    hidden_cards,
    move,
    stacked,
    url,
)
from .conftest import start as start_for_player

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db

CHOICE = {"preset": "standard", "target": "100", "level": "medium"}
PASSWORD = "a long pass phrase for a guest"


def guest_client(deck: list[str] | None = None) -> tuple[Client, Match]:
    """A browser with a guest key and a match against Bea (on ``deck`` if given)."""
    client = Client()
    key = new_key()
    client.cookies[GUEST_COOKIE] = key_cookie_value(GUEST_COOKIE, key)
    return client, guests.start(key, deck=deck)


def test_one_click_on_the_home_page_starts_a_match_without_an_account(client: Client):
    home = client.get("/").content.decode()
    assert "Play Bea now" in home
    assert 'action="/games/new/"' in home

    response = client.post("/games/new/", CHOICE)
    match = Match.objects.get()
    assert response.status_code == 302
    assert response["Location"] == url(match, "table")
    cookie = response.cookies[GUEST_COOKIE]
    assert cookie["httponly"] and cookie["samesite"] == "Lax"
    # Only the key's hash is stored; the key itself is nowhere in the database.
    seat = match.seats.get(number=0)
    assert seat.kind == Seat.Kind.GUEST and seat.user is None
    # The cookie holds the key signed (key:time:signature): only a key the site issued counts.
    key = cookie.value.split(":")[0]
    assert cookie.value == key_cookie_value(GUEST_COOKIE, key) or cookie.value.startswith(key + ":")
    assert seat.guest_key_hash == hashlib.sha256(key.encode()).hexdigest()
    assert not Seat.objects.filter(guest_key_hash__in=[key, cookie.value]).exists()
    assert match.seats.get(number=1).kind == Seat.Kind.BEA

    page = client.get(url(match, "table")).content.decode()
    assert "Your hand" in page
    assert_no_leak(page, hidden_cards(match))


def test_reloading_and_coming_back_finds_the_match(client: Client):
    client.post("/games/new/", CHOICE)
    match = Match.objects.get()
    deal(match)
    move(client, match, "pass")
    bea_moves(match, {"type": "pass"})
    # Come back later: the same browser, the same position.
    page = client.get(url(match, "table")).content.decode()
    assert "Your turn: draw" in page
    home = client.get("/").content.decode()
    assert "Resume your match" in home and url(match, "table") in home
    # The visit renews the key for another 30 days.
    renewed = client.get(url(match, "table")).cookies[GUEST_COOKIE]
    assert int(renewed["max-age"]) == KEY_MAX_AGE


def test_the_guest_plays_its_moves_and_bea_answers(client: Client):
    client, match = guest_client(stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "2D"))
    assert move(client, match, "pass").status_code == 302
    bea_moves(match, {"type": "pass"})
    move(client, match, "draw_stock")
    html = move(client, match, "knock", "KD", htmx=True).content.decode()
    assert "You knocked and score 78." in html


def test_another_browser_can_neither_see_nor_act(client: Client, bob: User):
    owner, match = guest_client()
    strangers = [Client(), Client()]
    strangers[1].force_login(bob)
    # A browser with a guest key of its own is a stranger too.
    strangers[0].cookies[GUEST_COOKIE] = "someone-elses-key-" + "x" * 20
    for stranger in strangers:
        assert stranger.get(url(match, "table")).status_code == 404
        response = move(stranger, match, "pass")
        assert response.status_code == 403
        assert stranger.get(url(match, "hint")).status_code == 404
        assert stranger.post(url(match, "resign"), {"confirm": "1"}).status_code == 403
    match.refresh_from_db()
    assert match.version == 0 and match.is_active
    # An overlong cookie is no key at all.
    strangers[0].cookies[GUEST_COOKIE] = "x" * 500
    assert strangers[0].get(url(match, "table")).status_code == 404


def test_a_new_match_while_one_runs_asks_first(client: Client):
    client.post("/games/new/", CHOICE)
    first = Match.objects.get()
    page = client.post("/games/new/", CHOICE).content.decode()
    assert "Start a new match?" in page
    assert Match.objects.count() == 1
    response = client.post("/games/new/", {**CHOICE, "confirm": "1"})
    assert response.status_code == 302
    first.refresh_from_db()
    assert first.status == Match.Status.ABANDONED
    assert Match.objects.exclude(pk=first.pk).get().previous == first


def test_signing_up_from_that_browser_keeps_the_matches_and_statistics(client: Client):
    client.post("/games/new/", CHOICE)
    match = Match.objects.get()
    # The guest wins a hand: a stacked second match makes the statistics certain.
    key = client.cookies[GUEST_COOKIE].value.split(":")[0]  # the key, without its signature
    won = guests.start(key, deck=stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "2D"), replace_running=True)
    move(client, won, "pass")
    bea_moves(won, {"type": "pass"})
    move(client, won, "draw_stock")
    move(client, won, "knock", "KD")

    response = client.post(
        "/accounts/signup/",
        {
            "username": "dora",
            "display_name": "Dora",
            "email": "dora@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert response.status_code == 302
    for m in (match, won):
        seat = m.seats.get(number=0)
        assert seat.kind == Seat.Kind.PLAYER and seat.user.username == "dora"
        assert seat.guest_key_hash == ""
    profile = client.get("/players/dora/").content.decode()
    assert 'data-stat="hands_won">1<' in profile
    assert 'data-stat="matches_played">1<' in profile  # the abandoned first match
    # The running match is the player's now.
    assert "Resume your match" in client.get("/").content.decode()
    assert client.get(url(won, "table")).status_code == 200


def test_signing_in_does_not_take_the_guest_matches(client: Client, alice: User, password: str):
    client.post("/games/new/", CHOICE)
    client.post("/accounts/login/", {"login": "alice", "password": password})
    assert Match.objects.get().seats.get(number=0).kind == Seat.Kind.GUEST


def test_guest_matches_idle_for_30_days_are_removed(alice: User, capsys):
    _client, idle = guest_client()
    _client, fresh = guest_client()
    players = start_for_player(alice)
    long_ago = timezone.now() - timedelta(days=31)
    Match.objects.filter(pk__in=[idle.pk, players.pk]).update(updated_at=long_ago)
    # An open page counts as a touch: its heartbeat keeps the seat seen.
    _client, watched = guest_client()
    Match.objects.filter(pk=watched.pk).update(updated_at=long_ago)
    Seat.objects.filter(match=watched, number=0).update(last_seen=timezone.now())

    call_command("expire_tables")
    assert "1 guest match(es) against Bea removed." in capsys.readouterr().out
    assert not Match.objects.filter(pk=idle.pk).exists()
    assert Match.objects.filter(pk__in=[fresh.pk, players.pk, watched.pk]).count() == 3


def test_the_lobby_is_not_for_guests():
    client, _match = guest_client()
    page = client.get("/lobby/").content.decode()
    assert "so it needs an account" in page
    assert "/accounts/signup/" in page


def test_the_guest_pages_speak_german(client: Client):
    german = {"accept-language": "de-DE,de;q=0.9"}
    assert "Jetzt gegen Bea spielen" in client.get("/", headers=german).content.decode()
    lobby = client.get("/lobby/", headers=german).content.decode()
    assert "daher braucht man dafür ein Konto" in lobby
    client.post("/games/new/", CHOICE)
    table = client.get(url(Match.objects.get(), "table"), headers=german).content.decode()
    assert "Tipps für deine erste Partie" in table
