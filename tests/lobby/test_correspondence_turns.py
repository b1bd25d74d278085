"""The "your turn" lists of correspondence matches (issue 26, parts 3 and 4): on the home page,
in the lobby (a region pushed live) and in the API; the opponent, the rules and the time left
in words, least time left first."""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING

import pytest
from django.test import Client

from games import services
from ginsite.lib.apikit import api_time
from lobby.accounts import tokens
from lobby.ratings.models import RatedMatch
from lobby.regions import render_regions
from tests.api.conftest import API

from .correspondence_helpers import Clock, correspondence_match, to_act

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db


@pytest.fixture
def three(clock: Clock, alice: User, bob: User, carol: User) -> dict[str, object]:
    """alice's correspondence matches: bob's 7-day one and carol's 1-day one wait for her;
    in a third, with 3 days, carol is to move."""
    slow = correspondence_match(bob, alice, days=7)  # bob in seat 0
    services.submit(slow, 0, {"type": "pass"}, slow.version)  # alice's turn
    clock.advance(hours=2)
    fast = correspondence_match(carol, alice, days=1)
    services.submit(fast, 0, {"type": "pass"}, fast.version)
    theirs = correspondence_match(carol, alice, days=3)  # carol (seat 0) to move
    clock.advance(hours=3)
    assert (to_act(slow), to_act(fast), to_act(theirs)) == (1, 1, 0)
    return {"slow": slow, "fast": fast, "theirs": theirs}


def _client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_api_lists_my_turns_least_time_left_first(
    three: dict, alice: User, carol: User
) -> None:
    answer = Client().get(
        f"{API}/me/your-turn", headers={"Authorization": f"Bearer {tokens.create(alice, 'a')[1]}"}
    )
    assert answer.status_code == 200
    rows = answer.json()
    assert [r["id"] for r in rows] == [three["fast"].public_id, three["slow"].public_id]
    fast, slow = rows
    assert (fast["opponent"], fast["opponent_username"], fast["days_per_move"]) == (
        "carol",
        "carol",
        1,
    )
    assert (fast["time_left"], fast["seconds_left"]) == ("21 hours left", 21 * 3600)
    assert (slow["opponent"], slow["time_left"]) == ("bob", "6 days 19 hours left")
    assert (slow["rules"], slow["target"]) == ("standard", 100)
    # In German when asked.
    german = (
        Client()
        .get(
            f"{API}/me/your-turn",
            headers={
                "Authorization": f"Bearer {tokens.create(alice, 'b')[1]}",
                "Accept-Language": "de",
            },
        )
        .json()
    )
    assert german[0]["time_left"] == "21 Stunden übrig"
    # carol's list holds the match where she is to move, not those waiting for alice.
    mine = (
        Client()
        .get(
            f"{API}/me/your-turn",
            headers={"Authorization": f"Bearer {tokens.create(carol, 'c')[1]}"},
        )
        .json()
    )
    assert [r["id"] for r in mine] == [three["theirs"].public_id]
    # The match list says which matches are correspondence.
    listed = (
        Client()
        .get(
            f"{API}/matches?status=active",
            headers={"Authorization": f"Bearer {tokens.create(alice, 'd')[1]}"},
        )
        .json()
    )
    assert sorted(m["days_per_move"] for m in listed) == [1, 3, 7]


def test_the_home_page_lists_my_turns(three: dict, alice: User) -> None:
    page = _client(alice).get("/").content.decode()
    section = page[page.index('id="your-turn"') :]
    assert section.index("carol") < section.index("bob")  # least time left first
    assert "Against <strong>carol</strong>: Standard to 100." in section
    assert "21 hours left" in section and "6 days 19 hours left" in section
    assert "1 correspondence match is waiting for your opponent." in section
    assert f'href="/games/{three["fast"].public_id}/"' in section


def test_the_lobby_lists_my_turns_and_pushes_the_list_when_it_changes(
    three: dict, alice: User, clock: Clock
) -> None:
    page = _client(alice).get("/lobby/").content.decode()
    region = page[page.index('id="lobby-turns"') : page.index('id="lobby-pool"')]
    assert region.index("carol") < region.index("bob")
    assert "21 hours left" in region
    # alice moves in the 1-day match: it leaves her list.
    fast = three["fast"]
    fast.refresh_from_db()
    services.submit(fast, 1, {"type": "pass"}, fast.version)
    again = render_regions(alice, ["turns"])
    assert "carol" not in again.split('id="lobby-turns"')[1].split("</section>")[0]
    assert "2 correspondence matches are waiting for your opponents." in again


def test_the_event_stream_tells_an_app_its_turn_began_and_until_when(
    clock: Clock, alice: User, bob: User
) -> None:
    match = correspondence_match(bob, alice, days=3)
    headers = {"Authorization": f"Bearer {tokens.create(alice, 'app')[1]}"}
    since = Client().get(f"{API}/events", headers=headers).json()["hello"]["last_seq"]
    services.submit(match, 0, {"type": "pass"}, match.version)  # alice's turn begins
    events = Client().get(f"{API}/events?since={since}", headers=headers).json()["events"]
    [event] = [e for e in events if e["type"] == "match"]
    view = event["data"]["view"]
    assert view["to_act"] == event["data"]["seat"] == 1
    assert view["live"]["days_per_move"] == 3
    assert view["live"]["move_deadline"] == api_time(clock.now + timedelta(days=3))
    assert view["live"]["claimable"] is False


def test_a_rematch_keeps_the_days_and_the_rating_choice(alice: User, bob: User) -> None:
    match = correspondence_match(alice, bob, days=7, rated=True)
    services.resign(match, 1, match.version)
    offer = services.make_offer(match, 1, "rematch", match.version)
    match.refresh_from_db()
    rematch = services.answer_offer(match, 0, offer.pk, "accept", match.version)
    assert rematch is not None and rematch.days_per_move == 7
    assert RatedMatch.objects.filter(match=rematch).exists()


def test_right_after_the_accept_the_hand_waits_for_the_challenger_and_the_lists_say_so(
    alice: User, bob: User
) -> None:
    """Issue 41, defect 7: bob accepted and his table sent its seed; the deal waits for
    alice's, so the match is alice's to open, not one waiting for her opponent."""
    from games.live.correspondence import your_turn
    from games.state_cache import load_state
    from lobby import services as lobby_services
    from tests.lobby.lobby_helpers import online

    online(alice)
    made = lobby_services.challenge(alice, bob, "standard", 100, days_per_move=3)
    match = lobby_services.accept_challenge(made, bob)
    services.submit(match, 1, {"type": "seed", "seed": "b0b" * 8}, match.version)
    match.refresh_from_db()
    state = load_state(match)
    assert state.phase == "shuffling" and state.seeded[0] is None
    [turn] = your_turn(alice)
    assert turn.match.pk == match.pk and turn.left == "the deal waits for you"
    assert your_turn(bob) == []
    page = _client(alice).get("/").content.decode()
    assert f'data-turn="{match.public_id}"' in page
    assert "waiting for your opponent" not in page
