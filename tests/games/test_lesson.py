"""The guided first hand on the real table: taken from the home or rules page by a guest or a
player, played through the door, which lets only the lesson's move through; left and taken
again; counted for nobody."""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import services
from games.access import GUEST_COOKIE
from games.bea import turns as bea_turns
from games.lesson import matches, script
from games.models import Action, Match, Seat
from games.records import matches as history
from games.records import stats

from .conftest import assert_no_leak, hidden_cards, move, snapshot, url
from .lesson_helpers import begin, play_to, where

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def test_a_guest_takes_the_lesson_on_the_real_table(client: Client):
    match = begin(client)
    assert GUEST_COOKIE in client.cookies
    assert match.kind == Match.Kind.LESSON
    seats = {s.number: s for s in match.seats.all()}
    assert seats[0].kind == Seat.Kind.GUEST and seats[0].user is None
    assert seats[1].kind == Seat.Kind.BEA and seats[1].bea_level == script.LEVEL

    page = client.get(url(match, "table")).content.decode()
    assert "Lesson, step 1 of 10" in page
    assert "Take the 9♦." in page
    # The move it asks for is pointed at on the table itself, as a hint is.
    assert 'value="take_upcard" class="hinted"' in page
    assert "Leave the lesson" in page
    # No resignation, hint or shuffle to verify: the panel is the way out and the guide.
    assert url(match, "resign") not in page and url(match, "hint") not in page
    assert "Fair shuffle" not in page
    assert_no_leak(page, hidden_cards(match))


def test_a_player_takes_it_with_the_browsers_guest_key(alice: User, alice_client: Client):
    match = begin(alice_client)
    assert not match.seats.filter(user=alice).exists()
    assert alice_client.get(url(match, "table")).status_code == 200


def test_a_wrong_move_is_refused_with_the_lessons_message_and_changes_nothing(client: Client):
    match = begin(client)
    before = snapshot(match)
    response = move(client, match, "pass", htmx=True)
    assert response.status_code == 422
    assert "Not that move in this lesson. Take the 9♦." in response.content.decode()
    assert snapshot(match) == before

    move(client, match, "take_upcard")
    before = snapshot(match)
    # A legal move of the game, but not the lesson's: refused in German for a German reader.
    response = move(client, match, "discard", "QD", htmx=True, HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 422
    assert "Diesen Zug sieht die Lektion hier nicht vor. Leg K♣ ab." in response.content.decode()
    assert snapshot(match) == before


def test_the_learner_waits_while_bea_plays(client: Client):
    match = begin(client)
    play_to(client, match, "1.2")
    before = snapshot(match)
    response = move(client, match, "draw_stock", htmx=True)
    assert response.status_code == 422
    assert "Wait for Bea: it is her turn." in response.content.decode()
    assert snapshot(match) == before


def test_the_whole_lesson_plays_out_as_the_panel_says(client: Client):
    match = begin(client)
    play_to(client, match, "1.end")
    page = client.get(url(match, "table")).content.decode()
    assert "Lesson, step 7 of 10" in page
    assert "You knocked with 3. Bea laid off 5♣, 4♥ and 9♥ onto your melds" in page
    assert "26 − 3 = 23" in page

    play_to(client, match, "2.end")
    page = client.get(url(match, "table")).content.decode()
    assert "8 − 6 + 25 = 27" in page
    assert "Play Bea for real" in page and "Take the lesson again" in page
    # Step 10 of 10 is the end: nothing is left to leave (issue 41).
    assert "Lesson, step 10 of 10" in page and "Leave the lesson" not in page
    # The lesson stops here: no next hand to deal, and the door refuses one.
    assert 'value="next_hand"' not in page
    response = client.post(url(match, "act"), {"move": "next_hand", "version": match.version})
    assert response.status_code == 422
    match.refresh_from_db()
    assert match.scores == [50, 0]
    assert list(match.hand_records.values_list("kind", "winner_seat")) == [
        ("knock", 0),
        ("undercut", 0),
    ]


def test_no_step_shows_a_card_the_learner_may_not_see(client: Client):
    match = begin(client)
    for key in script.story():
        play_to(client, match, key)
        page = client.get(url(match, "table")).content.decode()
        assert f'data-step="{key}"' in page
        if not where(match).over:
            assert_no_leak(page, hidden_cards(match))


def test_the_pages_seed_does_not_cut_the_scripted_second_deal(client: Client):
    match = begin(client)
    play_to(client, match, "2.1")
    # The page sends a seed of its own with its first move of a fair hand.
    move(client, match, "take_upcard", seed="f00d" * 8)
    stored = Action.objects.filter(match=match).order_by("-seq").first()
    assert stored is not None and stored.payload == {"type": "take_upcard"}
    play_to(client, match, "2.end")
    assert where(match).done


def test_each_move_answers_with_the_panels_next_step_without_a_page_load(client: Client):
    match = begin(client)
    html = move(client, match, "take_upcard", htmx=True).content.decode()
    assert 'id="lesson"' in html and 'hx-swap-oob="true"' in html
    assert "Discard the K♣." in html
    assert "Your deadwood fell from 67 to 49." in html


def test_bea_plays_the_script_on_her_own_turns(client: Client):
    match = begin(client)
    play_to(client, match, "1.2")
    assert bea_turns.play_turn(match) == 2
    match.refresh_from_db()
    moves = [a.payload for a in Action.objects.filter(match=match, seat=1).order_by("seq")]
    assert moves == [{"type": "draw", "from": "stock"}, {"type": "discard", "card": "KS"}]


def test_leaving_ends_the_lesson_and_the_home_page_offers_it_again(client: Client):
    match = begin(client)
    play_to(client, match, "1.4")
    response = client.post(reverse("games:lesson_leave", args=[match.public_id]))
    assert response.status_code == 302 and response["Location"] == reverse("home")
    match.refresh_from_db()
    assert match.status == Match.Status.ABANDONED
    assert "New here? Play a guided first hand" in client.get("/").content.decode()
    page = client.get(url(match, "table")).content.decode()
    assert "You left this lesson." in page and "Take the lesson again" in page


def test_taking_it_again_starts_afresh_in_place_of_the_old_one(client: Client):
    first = begin(client)
    play_to(client, first, "1.5")
    again = begin(client)
    assert not Match.objects.filter(pk=first.pk).exists()
    assert where(again).key == "1.0"


def test_only_its_browser_may_play_or_leave_it(client: Client, bob: User):
    match = begin(client)
    stranger, player = Client(), Client()
    player.force_login(bob)
    stranger.cookies[GUEST_COOKIE] = "someone-elses-key-" + "x" * 20
    for other in (stranger, player):
        assert other.get(url(match, "table")).status_code == 404
        assert move(other, match, "take_upcard").status_code == 403
        leave = other.post(reverse("games:lesson_leave", args=[match.public_id]))
        assert leave.status_code == 404
    match.refresh_from_db()
    assert match.version == 0 and match.is_active


def test_a_lesson_counts_for_nobody(alice: User, alice_client: Client):
    match = begin(alice_client)
    play_to(alice_client, match, "2.end")
    matches.leave(match, 0)
    assert stats.player_stats(alice)["matches_played"] == 0
    assert not history.matches_of(alice).exists()
    listed = alice_client.get("/api/v1/me/matches").json()
    assert listed["count"] == 0
    assert services.running_bea_match(alice) is None
    # The first real match still brings the first-match tips.
    alice_client.post("/games/new/", {"preset": "standard", "target": "100", "level": "easy"})
    real = Match.objects.get(kind=Match.Kind.BEA)
    assert "Tips for your first match" in alice_client.get(url(real, "table")).content.decode()


def test_the_home_page_offers_it_to_a_first_visitor_until_they_play(client: Client):
    home = client.get("/").content.decode()
    assert "New here? Play a guided first hand" in home
    assert f'action="{reverse("games:lesson")}"' in home
    client.post("/games/new/", {"preset": "standard", "target": "100", "level": "easy"})
    assert "New here?" not in client.get("/").content.decode()


def test_no_thanks_keeps_the_offer_away(client: Client):
    response = client.post(reverse("games:lesson_decline"))
    assert response.status_code == 302
    assert "New here?" not in client.get("/").content.decode()
    # The rules page still has it.
    rules = client.get(reverse("how_to_play")).content.decode()
    assert "Learn by playing" in rules and f'action="{reverse("games:lesson")}"' in rules


def test_a_player_with_matches_is_not_offered_it(alice: User, alice_client: Client):
    services.start_bea_match(alice, "standard", 100, "easy")
    assert "New here?" not in alice_client.get("/").content.decode()


def test_starting_needs_a_post():
    assert Client().get(reverse("games:lesson")).status_code == 405


def test_old_lessons_expire(client: Client):
    match = begin(client)
    Match.objects.filter(pk=match.pk).update(updated_at=timezone.now() - timedelta(days=2))
    call_command("expire_tables")
    assert not Match.objects.filter(pk=match.pk).exists()
