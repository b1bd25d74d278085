"""No hidden card reaches a private table's pages or a pass-and-play page: random matches
played through the real views, every response scanned (codes, glyph labels, spoken names and
rank/suit spans) for the cards its reader may not see at that moment."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

import pytest
from django.test import Client
from django.urls import reverse

from games import local, private, services
from games.engine import ALL_CARDS
from games.models import Match

from .live_helpers import shown_cards
from .test_leak import choose, form_of, hidden_from

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db

MATCHES = 4
MAX_ACTIONS = 70
HTMX = {"HTTP_HX_REQUEST": "true"}


def _mover(match: Match) -> int:
    """Who moves next: the player to act, or seat 0 to deal the next hand."""
    state = services.load_state(match)
    return 0 if state.to_act is None else state.to_act


@pytest.mark.parametrize("seed", range(MATCHES))
def test_private_table_pages_show_each_reader_only_their_own_cards(alice: User, seed: int):
    rng = random.Random(seed)
    table, match, _ = private.open_table(alice, allow_spectators=True)
    host = Client()
    host.force_login(alice)
    guest = Client()
    guest.post(reverse("games:private_join", args=[table.token]), {"name": "Dora"})
    watcher = Client()
    readers = {0: host, 1: guest}
    link = reverse("games:private", args=[table.token])
    for number in (0, 1):
        services.seat_connected(match.pk, number)
    scanned = 0
    for _step in range(MAX_ACTIONS):
        match.refresh_from_db()
        if not match.is_active:
            break
        for seat, client in readers.items():
            page = client.get(link).content.decode()
            assert not shown_cards(page, hidden_from(match, seat)), f"page of seat {seat}"
        watched = watcher.get(link).content.decode()
        assert not shown_cards(watched, hidden_from(match, 2)), "the watcher's page"
        seat = _mover(match)
        action = choose(services.player_view(match, seat), rng)
        data = {**form_of(action), "version": match.version}
        response = readers[seat].post(reverse("games:act", args=[match.public_id]), data, **HTMX)
        assert response.status_code == 200, response.content
        match.refresh_from_db()
        answer = response.content.decode()
        assert not shown_cards(answer, hidden_from(match, seat)), "a move's answer"
        scanned += 4
    assert scanned > 40


@pytest.mark.parametrize("seed", range(MATCHES))
def test_pass_and_play_pages_hold_no_hand_but_the_revealed_one(seed: int):
    rng = random.Random(100 + seed)
    device = Client()
    device.post(
        reverse("games:local_new"),
        {"first": "Ann", "second": "Ben", "preset": "standard", "target": 100},
    )
    match = Match.objects.get(kind=Match.Kind.LOCAL)
    page_url = reverse("games:local", args=[match.public_id])
    reveals = 0
    for _step in range(MAX_ACTIONS):
        match.refresh_from_db()
        if not match.is_active:
            break
        shown = local.seat_shown(match)
        page = device.get(page_url).content.decode()
        if shown is not None:
            # The pass screen: no card of any kind, public or not.
            assert not shown_cards(page, list(ALL_CARDS)), "the pass screen"
            page = device.post(
                reverse("games:local_reveal", args=[match.public_id]), {"version": match.version}
            ).content.decode()
            reveals += 1
        seat = _mover(match)
        assert not shown_cards(page, hidden_from(match, seat)), "the revealed page"
        action = choose(services.player_view(match, seat), rng)
        data = {**form_of(action), "version": match.version}
        response = device.post(reverse("games:local_act", args=[match.public_id]), data, **HTMX)
        assert response.status_code in (200, 204), response.content
        match.refresh_from_db()
        answer = response.content.decode()
        assert not shown_cards(answer, hidden_from(match, seat)), "a move's answer"
    assert reveals > 10
