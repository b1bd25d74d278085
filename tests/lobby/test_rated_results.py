"""A rated lobby match changes both ratings once, when it ends; casual and aborted ones none."""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING

import pytest
from django.utils import timezone

from games import services
from games.models import Match
from games.services import endings
from games.state_cache import load_state
from lobby.events import log as event_log
from lobby.ratings import results
from lobby.ratings.glicko import display
from lobby.ratings.models import RatedMatch, RatingChange
from lobby.ratings.reads import ratings_of

from .rating_helpers import challenge_match, next_hand, play, play_moves, rating, resign

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db


def _outcome(match: Match) -> str:
    return RatedMatch.objects.get(match=match).outcome


def test_it_rates_a_resigned_match_for_both_players(alice: User, bob: User):
    match = challenge_match(alice, bob)
    play(match)
    resign(match, 1)  # bob, in seat 1, resigns: alice wins
    assert _outcome(match) == "rated"
    won, lost = ratings_of(alice)["standard"], ratings_of(bob)["standard"]
    assert won.rating > 1500 > lost.rating and won.games == lost.games == 1
    assert won.display.endswith("?")  # one match leaves a deviation far above 110
    change = RatingChange.objects.get(match=match, user=alice)
    assert change.signed == f"+{won.rounded - 1500}" and change.opponent == bob
    # Other presets are untouched.
    assert ratings_of(alice)["classic"].display == "1500?"


def test_it_rates_a_win_on_time(alice: User, bob: User, monkeypatch: pytest.MonkeyPatch):
    match = challenge_match(alice, bob)
    play(match)
    next_hand(match)  # someone is to move again
    match.refresh_from_db()
    waiting = 1 - load_state(match).to_act
    monkeypatch.setattr(endings, "claimable", lambda m, seat: True)
    services.claim_win(match, waiting, match.version)
    assert _outcome(match) == "rated"
    winner = alice if waiting == 0 else bob
    assert rating(winner).rating > 1500


def test_a_casual_match_changes_no_rating(alice: User, bob: User):
    match = challenge_match(alice, bob, rated=False)
    play(match)
    resign(match, 1)
    assert not RatedMatch.objects.filter(match=match).exists()
    assert rating(alice) is None and rating(bob) is None
    assert ratings_of(alice)["standard"].display == "1500?"


def test_a_match_resigned_before_both_made_two_moves_is_aborted(alice: User, bob: User):
    match = challenge_match(alice, bob)
    play_moves(match, 1)
    resign(match, 0)
    assert _outcome(match) == "aborted"
    assert rating(alice) is None and rating(bob) is None


def test_a_seek_can_be_rated(alice: User, bob: User):
    from lobby import services as lobby_services

    from .lobby_helpers import online

    online(alice, bob)
    seek = lobby_services.post_seek(alice, "classic", 100, rated=True)
    match = lobby_services.accept_seek(seek, bob)
    play(match)
    resign(match, 0)
    assert rating(bob, "classic").rating > 1500 and rating(bob) is None


def test_each_player_hears_their_rating_change(alice: User, bob: User):
    match = challenge_match(alice, bob)
    play(match)
    before = event_log.last_seq(bob.pk)
    resign(match, 1)
    events = [e for e in event_log.fetch(bob.pk, before) if e.kind == "rating"]
    assert len(events) == 1
    data = events[0].payload
    assert data["match"] == match.public_id and data["preset"] == "standard"
    assert data["change"] < 0 and data["display"] == rating(bob).display


def test_a_rematch_of_a_rated_match_is_rated(alice: User, bob: User):
    match = challenge_match(alice, bob)
    play(match)
    resign(match, 1)
    match.refresh_from_db()
    offer = services.make_offer(match, 1, "rematch", match.version)
    match.refresh_from_db()
    again = services.answer_offer(match, 0, offer.pk, "accept", match.version)
    assert again is not None and _outcome(again) == "pending"


def test_the_fourth_rated_match_of_a_day_between_two_players_is_casual(alice: User, bob: User):
    for _ in range(results.DAILY_CAP):
        match = challenge_match(alice, bob)
        play(match)
        resign(match, 1)
    after_three = rating(alice).rating
    fourth = challenge_match(bob, alice)
    play(fourth)
    resign(fourth, 0)  # bob resigns again
    assert _outcome(fourth) == "capped"
    assert rating(alice).rating == after_three and rating(alice).games == 3
    assert "Played casual: these two players had played 3 rated matches" in _table(alice, fourth)
    # A day later they count again.
    RatingChange.objects.update(created_at=timezone.now() - timedelta(days=1, minutes=1))
    fifth = challenge_match(alice, bob)
    play(fifth)
    resign(fifth, 1)
    assert _outcome(fifth) == "rated" and rating(alice).games == 4


def test_settling_twice_changes_nothing_more(alice: User, bob: User):
    match = challenge_match(alice, bob)
    play(match)
    resign(match, 1)
    once = rating(alice).rating
    assert results.settle(match.pk) is None
    assert rating(alice).rating == once and RatingChange.objects.filter(match=match).count() == 2


def _table(user: User, match: Match) -> str:
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client.get(f"/games/{match.public_id}/").content.decode()


def test_the_table_shows_ratings_and_the_rating_change(alice: User, bob: User):
    match = challenge_match(alice, bob)
    page = _table(alice, match)
    assert page.count('<span class="rating">1500?</span>') == 2  # both name plates
    play(match)
    resign(match, 1)
    won = RatingChange.objects.get(match=match, user=alice)
    page = _table(alice, match)
    # bob is a new account (no rated results yet): alice's gain is within her allowance.
    limited = f"{won.signed} (limited: wins against new accounts)"
    now = display(won.after, won.rd_after)
    assert f"Rating change: {limited}, now {now}." in page
    lost = RatingChange.objects.get(match=match, user=bob)
    assert f"bob: {lost.signed}, now {display(lost.after, lost.rd_after)}." in page
    assert won.signed.startswith("+") and lost.signed.startswith("-")
    # One rating, written one way (issue 41): by the name, the rating the match left.
    assert f'<span class="rating">{now}</span>' in page
    assert f'<span class="rating">{round(won.before)}</span>' not in page


def test_the_table_says_why_a_match_was_not_rated(alice: User, bob: User):
    aborted = challenge_match(alice, bob)
    play_moves(aborted, 1)
    resign(aborted, 0)
    page = _table(bob, aborted)
    assert "Aborted before the first hand was over: not rated." in page
    assert "It counts as an abort for alice." in page  # alice resigned it
    casual = challenge_match(alice, bob, rated=False)
    play(casual)
    resign(casual, 0)
    assert "Rating change" not in _table(bob, casual)


def test_matches_outside_the_lobby_are_never_rated(alice: User):
    from games.models import Seat

    match = services.start_bea_match(alice, "standard", 100, "easy")
    match.refresh_from_db()
    services.resign(match, 0, match.version)
    local = services.create_match(
        Match.Kind.LOCAL,
        services.ruleset("standard", 100),
        (
            services.SeatSpec(Seat.Kind.LOCAL, user=alice, name="A"),
            services.SeatSpec(Seat.Kind.LOCAL, user=alice, name="B"),
        ),
    )
    local.refresh_from_db()
    services.resign(local, 0, local.version)
    assert not RatedMatch.objects.exists() and rating(alice) is None
