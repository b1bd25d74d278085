"""The profile's list of a player's matches: finished and running, newest first, paginated,
each opening its table (read-only once the match is over)."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import TYPE_CHECKING

import pytest
from django.test import Client
from django.utils import timezone

from games import services
from games.models import Match, Seat
from games.records import matches as history
from tests.games.conftest import ALICE_KNOCKS, BEA_LOOSE, bea_moves, move, stacked, start, url
from tests.games.live_helpers import lobby_match

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db


def rows(page: str) -> list[str]:
    return re.findall(r'<tr data-match="([^"]+)" data-result="(\w+)">', page)


def aged(match: Match, days: int) -> Match:
    """Pretend the match began ``days`` ago (the list is ordered by when matches began)."""
    Match.objects.filter(pk=match.pk).update(created_at=timezone.now() - timedelta(days=days))
    return match


def test_it_lists_finished_and_running_matches_newest_first(alice: User, bob: User):
    lost = aged(lobby_match(alice, bob), 3)
    services.resign(lost, 0, services.CURRENT)
    won = aged(start(alice, stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "2D"), preset="classic"), 2)
    services.resign(won, 1, services.CURRENT)  # Bea gives up: alice wins
    running = start(alice, target=50)
    client = Client()
    client.force_login(alice)
    page = client.get("/players/alice/").content.decode()
    assert rows(page) == [
        (running.public_id, "running"),
        (won.public_id, "won"),
        (lost.public_id, "lost"),
    ]
    listed = page.split('id="player-matches"')[1]
    assert "Bea" in listed and "bob" in listed
    assert "Classic, to 100" in listed and "Standard, to 50" in listed
    assert "Lost (resigned)" in listed and "In progress: continue" in listed
    for match in (running, won, lost):
        assert f'href="{url(match, "table")}"' in listed


def test_it_shows_the_score_from_the_players_side(alice: User, bob: User):
    match = start(alice, stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "2D"))
    client = Client()
    client.force_login(alice)
    move(client, match, "pass")
    bea_moves(match, {"type": "pass"})
    move(client, match, "draw_stock")
    move(client, match, "knock", "KD")
    listed = client.get("/players/alice/").content.decode().split('id="player-matches"')[1]
    assert '<td class="score">78–0</td>' in listed


def test_it_pages_through_many_matches(alice: User, bob: User):
    made = []
    for n in range(history.PAGE_SIZE + 5):
        match = aged(start(alice), history.PAGE_SIZE + 5 - n)  # later ones are newer
        made.append(match)
    newest_first = [m.public_id for m in reversed(made)]
    client = Client()
    client.force_login(alice)
    first = client.get("/players/alice/").content.decode()
    assert [r[0] for r in rows(first)] == newest_first[: history.PAGE_SIZE]
    assert "Page 1 of 2" in first and 'href="?page=2#player-matches"' in first
    second = client.get("/players/alice/?page=2").content.decode()
    assert [r[0] for r in rows(second)] == newest_first[history.PAGE_SIZE :]
    assert 'href="?page=1#player-matches"' in second
    # Nonsense or a page too far gives a page, never an error.
    assert client.get("/players/alice/?page=x").status_code == 200
    assert rows(client.get("/players/alice/?page=99").content.decode()) == rows(second)


def test_only_the_player_sees_their_list(alice: User, bob: User):
    start(alice)
    client = Client()
    client.force_login(bob)
    assert 'id="player-matches"' not in client.get("/players/alice/").content.decode()
    assert 'id="player-matches"' not in Client().get("/players/alice/").content.decode()


def test_a_restarted_match_is_left_out(alice: User, bob: User):
    match = lobby_match(alice, bob)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.RESTARTED)
    client = Client()
    client.force_login(alice)
    assert rows(client.get("/players/alice/").content.decode()) == []


def test_a_finished_table_opens_read_only(alice: User):
    match = start(alice, stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "2D"), target=50)
    client = Client()
    client.force_login(alice)
    move(client, match, "pass")
    bea_moves(match, {"type": "pass"})
    move(client, match, "draw_stock")
    move(client, match, "knock", "KD")  # 78 points: the match is over
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    page = client.get(url(match, "table")).content.decode()
    assert "Settlement" in page
    # No move can be made from it: no move buttons, and a move sent anyway changes nothing.
    assert not re.search(r'name="move" value="(?!next_hand)', page)
    assert 'value="next_hand"' not in page
    version = match.version
    assert move(client, match, "next_hand").status_code in (409, 422)
    match.refresh_from_db()
    assert match.version == version


def test_an_adopted_guest_match_is_listed(client: Client):
    from games.access import GUEST_COOKIE, key_cookie_value, new_key
    from games.bea import guests

    key = new_key()
    match = guests.start(key)
    client.cookies[GUEST_COOKIE] = key_cookie_value(GUEST_COOKIE, key)
    password = "a long pass phrase for a guest"
    client.post(
        "/accounts/signup/",
        {
            "username": "dora",
            "display_name": "Dora",
            "email": "dora@example.com",
            "password1": password,
            "password2": password,
        },
    )
    assert Seat.objects.get(match=match, number=0).user.username == "dora"
    assert rows(client.get("/players/dora/").content.decode()) == [(match.public_id, "running")]


def test_a_match_with_no_hand_finished_says_so_instead_of_a_dash(alice: User, bob: User):
    """Issue 41: the row of a match resigned in its first hand ended with a stray "–"."""
    match = lobby_match(alice, bob)
    services.resign(match, 0, services.CURRENT)
    client = Client()
    client.force_login(alice)
    listed = client.get("/players/alice/").content.decode().split('id="player-matches"')[1]
    row = listed[listed.index(f'data-match="{match.public_id}"') :]
    row = row[: row.index("</tr>")]
    replays = row[row.index('<td class="replays">') :]
    assert "No hand finished" in replays
    assert "–" not in replays
