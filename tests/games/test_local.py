"""Pass-and-play on one device: the pass screen between turns holds no card, Reveal renders
only the hand of the player to act, the match resumes after a reload, and a new round needs a
confirmation."""

from __future__ import annotations

import re
import time
from typing import TYPE_CHECKING

import pytest
from django.core import signing
from django.test import Client
from django.urls import reverse

from games import access
from games.engine import ALL_CARDS
from games.local import play as local
from games.models import Match, Seat
from games.records.stats import player_stats
from games.state_cache import forget_all

from .conftest import ALICE_KNOCKS, BEA_LOOSE, assert_no_leak, hand, snapshot, stacked
from .live_helpers import shown_cards

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.http import HttpResponse

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
ANN, BEN = ALICE_KNOCKS, BEA_LOOSE  # seat 0 (plays first) and seat 1
DECK = stacked(ANN, BEN, "QC", "2D")


def page(match: Match) -> str:
    return reverse("games:local", args=[match.public_id])


def route(match: Match, name: str) -> str:
    return reverse(f"games:local_{name}", args=[match.public_id])


@pytest.fixture
def device() -> Client:
    return Client()


@pytest.fixture
def match(device: Client) -> Match:
    """A match started in ``device`` by its form, then stacked for the test."""
    response = device.post(
        reverse("games:local_new"),
        {"first": "Ann", "second": "Ben", "preset": "standard", "target": 100},
    )
    assert response.status_code == 302
    made = Match.objects.get(kind=Match.Kind.LOCAL)
    assert response["Location"] == page(made)
    # Stacked, its first hand is dealt at once: no wait for the device's seed.
    Match.objects.filter(pk=made.pk).update(first_deck=DECK, deal_due=None)
    forget_all()
    made.refresh_from_db()
    return made


def reveal(client: Client, match: Match) -> str:
    """Press Reveal without JavaScript: a redirect to the match's address, which now shows the
    hand (post/redirect/get); the page's HTML."""
    match.refresh_from_db()
    response = client.post(route(match, "reveal"), {"version": match.version})
    assert response.status_code == 302 and response["Location"] == page(match)
    shown = client.get(page(match))
    assert shown.status_code == 200
    assert "no-store" in shown["Cache-Control"]
    return shown.content.decode()


def assert_pass_screen_in_place(response: HttpResponse, name: str) -> str:
    """An htmx answer that swaps the pass screen in for the page's main part (the hand that
    was there goes with it); its HTML."""
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    assert (response["HX-Retarget"], response["HX-Reselect"]) == ("#main", "#main")
    assert response["HX-Reswap"] == "outerHTML"
    html = response.content.decode()
    assert f"Pass the device to {name}" in html and 'id="hand"' not in html
    return html


def act(client: Client, match: Match, move: str, card: str = "", seed: str = "", **extra: str):  # type: ignore[no-untyped-def]
    match.refresh_from_db()
    data = {"move": move, "version": match.version}
    if card:
        data["card"] = card
    if seed:
        data["seed"] = seed
    return client.post(route(match, "act"), data, **extra)


def test_it_starts_with_two_names_and_an_owner_cookie(device: Client, match: Match):
    seats = list(match.seats.order_by("number"))
    assert [(s.kind, s.name) for s in seats] == [(Seat.Kind.LOCAL, "Ann"), (Seat.Kind.LOCAL, "Ben")]
    cookie = device.cookies[access.OWNER_COOKIE]
    assert cookie["httponly"] and cookie["samesite"] == "Lax"
    assert seats[0].guest_key_hash and seats[0].guest_key_hash != cookie.value


def test_it_refuses_equal_or_bad_names(device: Client):
    # "\u0410nn" starts with a Cyrillic А: it looks just like "Ann".
    for first, second in (("Ann", "ann"), ("A", "Ben"), ("Ann", ""), ("Ann", "\u0410nn")):
        response = device.post(
            reverse("games:local_new"),
            {"first": first, "second": second, "preset": "standard", "target": 100},
        )
        assert response.status_code == 400
    assert not Match.objects.exists()


def test_the_pass_screen_holds_neither_hand(device: Client, match: Match):
    response = device.get(page(match))
    html = response.content.decode()
    assert "Pass the device to Ann, then press Reveal my hand" in html
    assert "no-store" in response["Cache-Control"]
    # No card at all: neither hand, nor the stock (the upcard is public but not needed here).
    assert_no_leak(html, [c for c in ALL_CARDS if c != "QC"])
    assert 'id="hand"' not in html


def test_reveal_renders_only_the_hand_of_the_player_to_act(device: Client, match: Match):
    html = reveal(device, match)
    assert shown_cards(html, ANN) == hand(ANN)
    assert_no_leak(html, hand(BEN) + DECK[21:])
    assert "Ann&#x27;s hand" in html or "Ann's hand" in html
    assert "ws-connect" not in html  # nothing live on one device


def test_passing_the_turn_goes_back_to_the_pass_screen(device: Client, match: Match):
    reveal(device, match)
    response = act(device, match, "pass", **HTMX)
    html = assert_pass_screen_in_place(response, "Ben")
    assert_no_leak(html, [c for c in ALL_CARDS if c != "QC"])
    html = device.get(page(match)).content.decode()
    assert "Pass the device to Ben" in html
    assert_no_leak(html, hand(ANN) + hand(BEN))
    html = reveal(device, match)
    assert shown_cards(html, BEN) == hand(BEN)
    assert_no_leak(html, hand(ANN))


def test_a_draw_keeps_the_same_hand_shown_until_the_discard(device: Client, match: Match):
    reveal(device, match)
    act(device, match, "pass", **HTMX)
    reveal(device, match)
    act(device, match, "pass", **HTMX)  # Ben passes too: Ann draws from the stock
    reveal(device, match)
    response = act(device, match, "draw_stock", **HTMX)
    assert response.status_code == 200
    html = response.content.decode()
    assert "2D" in html  # Ann's drawn card, shown to Ann
    assert_no_leak(html, hand(BEN))
    response = act(device, match, "discard", "KD", **HTMX)
    assert_no_leak(assert_pass_screen_in_place(response, "Ben"), hand(ANN) + hand(BEN))


def test_a_reload_shows_the_pass_screen_for_whoever_is_to_act(device: Client, match: Match):
    reveal(device, match)
    act(device, match, "pass")  # without htmx: redirected to the page
    services_version = snapshot(match)
    assert services_version == (1, 1)
    html = device.get(page(match)).content.decode()
    assert "Pass the device to Ben" in html and 'id="hand"' not in html


def test_stale_reveals_and_moves_change_nothing(device: Client, match: Match):
    reveal(device, match)
    act(device, match, "pass", **HTMX)
    old = device.post(route(match, "reveal"), {"version": 0})
    assert old.status_code == 302 and old["Location"] == page(match)
    stale = device.post(route(match, "act"), {"move": "pass", "version": 0}, **HTMX)
    assert_pass_screen_in_place(stale, "Ben")
    assert snapshot(match) == (1, 1)


def test_someone_elses_device_gets_nothing(match: Match, alice: User):
    for other in (Client(), Client()):
        other.cookies[access.OWNER_COOKIE] = "forged-" + "x" * 30
        assert other.get(page(match)).status_code == 404
        assert other.post(route(match, "reveal"), {"version": 0}).status_code == 404
        assert other.post(route(match, "act"), {"move": "pass", "version": 0}).status_code == 404
    signed = Client()
    signed.force_login(alice)
    assert signed.get(page(match)).status_code == 404
    assert signed.get(reverse("games:table", args=[match.public_id])).status_code == 302
    assert snapshot(match) == (0, 0)


def test_a_signed_in_owner_resumes_on_another_device(alice: User):
    match = local.start(alice, "", "Ann", "Ben", deck=DECK)
    phone = Client()
    phone.force_login(alice)
    assert "Pass the device to Ann" in phone.get(page(match)).content.decode()
    assert player_stats(alice)["matches_played"] == 0


def test_a_hand_end_shows_both_hands_and_the_next_hand_passes_the_device(
    device: Client, match: Match
):
    reveal(device, match)
    act(device, match, "pass", **HTMX)
    reveal(device, match)
    act(device, match, "pass", **HTMX)
    reveal(device, match)
    act(device, match, "draw_stock", **HTMX)
    response = act(device, match, "knock", "KD", **HTMX)
    assert response.status_code == 200  # the result, for both to see
    html = device.get(page(match)).content.decode()
    assert "Hand 1:" in html and 'name="move" value="next_hand"' in html
    response = act(device, match, "next_hand", **HTMX)
    # The next hand waits for the device's seed (docs/fairness.md), which the page sends at
    # once; no card is on the table meanwhile. Then the deal passes the device.
    shuffling = response.content.decode()
    assert 'value="seed"' in shuffling and "Shuffling: sending your seed" in shuffling
    assert not shown_cards(shuffling, ALL_CARDS)
    response = act(device, match, "seed", seed="the-devices-seed", **HTMX)
    assert_pass_screen_in_place(response, "Ben")
    html = device.get(page(match)).content.decode()
    assert "Pass the device to" in html and 'id="hand"' not in html


def test_a_new_round_replaces_the_match_after_a_confirmation(device: Client, match: Match):
    reveal(device, match)
    act(device, match, "pass", **HTMX)
    confirm = device.get(route(match, "restart"))
    assert confirm.status_code == 200 and "Start a new round?" in confirm.content.decode()
    assert Match.objects.count() == 1
    response = device.post(route(match, "restart"), {"confirm": "1", "version": 1})
    new = Match.objects.exclude(pk=match.pk).get()
    assert response["Location"] == page(new)
    match.refresh_from_db()
    assert match.status == Match.Status.RESTARTED and new.previous_id == match.pk
    assert [s.name for s in new.seats.order_by("number")] == ["Ann", "Ben"]
    assert device.get(page(match))["Location"] == page(new)
    stale = device.post(route(new, "restart"), {"confirm": "1", "version": 5})
    assert stale.status_code == 409 and Match.objects.count() == 2


def test_the_hint_helps_the_revealed_hand_and_reveals_nothing_on_a_plain_get(
    device: Client, match: Match
):
    table = reveal(device, match)
    assert f'hx-get="{route(match, "hint")}"' in table
    answer = device.get(route(match, "hint"), HTTP_HX_REQUEST="true")
    assert answer.status_code == 200 and "no-store" in answer["Cache-Control"]
    assert "Bea would:" in answer.content.decode()
    # Without htmx (a link opened by hand) it is the pass screen, never a hand.
    plain = device.get(route(match, "hint"))
    assert plain.status_code == 302 and plain["Location"] == page(match)
    assert Client().get(route(match, "hint"), HTTP_HX_REQUEST="true").status_code == 404


def test_each_player_on_the_device_keeps_an_order_of_their_own(device: Client, match: Match):
    table = reveal(device, match)
    shown = re.findall(r'<li class="slot[^"]*" data-code="(\w\w)"', table)
    mine = list(reversed(shown))
    answer = device.post(route(match, "order"), {"order": " ".join(mine)}, HTTP_HX_REQUEST="true")
    assert answer.status_code == 204
    again = reveal(device, match)
    assert re.findall(r'<li class="slot[^"]*" data-code="(\w\w)"', again) == mine


def test_reveal_over_htmx_shows_the_hand_in_place_and_marks_this_position(
    device: Client, match: Match
):
    response = device.post(route(match, "reveal"), {"version": 0}, **HTMX)
    assert response.status_code == 200 and "no-store" in response["Cache-Control"]
    html = response.content.decode()
    assert shown_cards(html, ANN) == hand(ANN) and 'id="main"' in html
    marker = response.cookies[local.REVEALED_COOKIE]
    assert marker["path"] == page(match) and marker["httponly"]
    assert marker["samesite"] == "Strict" and 0 < int(marker["max-age"]) <= 15 * 60
    # A reload of the address after Reveal shows the same hand: the page never left it.
    assert shown_cards(device.get(page(match)).content.decode(), ANN) == hand(ANN)


def test_a_reload_after_reveal_shows_only_the_hand_still_to_act(device: Client, match: Match):
    reveal(device, match)
    act(device, match, "pass")  # without JavaScript: a redirect to the address
    html = device.get(page(match)).content.decode()
    assert "Pass the device to Ben" in html
    assert_no_leak(html, hand(ANN) + hand(BEN))
    reveal(device, match)
    act(device, match, "pass")
    # Ann draws, then must discard: the same turn, so the address keeps showing her hand.
    reveal(device, match)
    answer = act(device, match, "draw_stock")
    assert answer.status_code == 302 and answer["Location"] == page(match)
    html = device.get(page(match)).content.decode()
    assert sorted(shown_cards(html, [*hand(ANN), "2D"])) == sorted([*hand(ANN), "2D"])
    assert_no_leak(html, hand(BEN))
    act(device, match, "discard", "KD")
    html = device.get(page(match)).content.decode()
    assert "Pass the device to Ben" in html and 'id="hand"' not in html


def test_the_marker_shows_one_position_for_a_short_while(
    device: Client, match: Match, monkeypatch: pytest.MonkeyPatch
):
    reveal(device, match)
    old = device.cookies[local.REVEALED_COOKIE].value
    act(device, match, "pass")
    # Ann's marker at the position before: Ben is to act now, and nobody sees a hand.
    device.cookies[local.REVEALED_COOKIE] = old
    html = device.get(page(match)).content.decode()
    assert "Pass the device to Ben" in html and 'id="hand"' not in html
    for forged in ("1:1", old.replace("0:0", "1:1")):
        device.cookies[local.REVEALED_COOKIE] = forged
        assert 'id="hand"' not in device.get(page(match)).content.decode()
    # A device left alone after Reveal shows the pass screen again once the marker is old.
    reveal(device, match)
    later = time.time() + local.REVEALED_MAX_AGE + 1
    monkeypatch.setattr(signing.time, "time", lambda: later)
    assert 'id="hand"' not in device.get(page(match)).content.decode()
