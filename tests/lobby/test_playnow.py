"""Bea while you wait (lobby.playnow, docs/playnow.md): after a countdown a player alone in
the pool is offered Bea at their level, casual; they stay in the pool; a person found is told
at Bea's table and they switch, Bea's match counting for nobody; the person waits no longer than
the lobby's claim time. The clock is frozen (``clock``) and moved by the test."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games import services as game_services
from games.live.connection import CLAIM_AFTER_SECONDS, claimable
from games.models import Match
from games.services.moves import SEED_WAIT_SECONDS
from games.state_cache import load_state
from ginsite.lib.refusals import Conflict
from lobby.models import PoolEntry
from lobby.playnow import notice, offer
from lobby.pool import service as pool_service
from lobby.ratings.models import RatedMatch, Rating
from tests.lobby.correspondence_helpers import Clock
from tests.lobby.lobby_helpers import HTMX

pytestmark = pytest.mark.django_db


def _join(user: User, **kwargs: Any) -> PoolEntry:
    return pool_service.join_pool(user, "standard", 100, **kwargs)


def _bea_matches(user: User) -> list[Match]:
    return list(Match.objects.filter(kind=Match.Kind.BEA, seats__user=user))


@pytest.fixture(autouse=True)
def _eight_seconds(settings: Any) -> None:
    settings.PLAYNOW_BEA_AFTER = 8


def test_it_maps_ratings_to_levels() -> None:
    assert offer.level_for(900) == "easy"
    assert offer.level_for(1399) == "easy"
    assert offer.level_for(1400) == "medium"
    assert offer.level_for(1500) == "medium"  # a new player
    assert offer.level_for(1650) == "hard"
    assert offer.level_for(1800) == "expert"


def test_it_counts_down_then_offers_bea_at_the_players_level(alice: User, clock: Clock) -> None:
    Rating.objects.create(user=alice, preset="standard", rating=1700, rd=80)
    entry = _join(alice, rated=True)
    shown = offer.offer_for(entry)
    assert shown is not None and shown.seconds_left == 8 and shown.level == "hard"
    clock.advance(seconds=7.5)
    assert offer.offer_for(entry).seconds_left == 1
    with pytest.raises(Conflict, match="1 more second"):
        offer.play_bea(alice)
    assert _bea_matches(alice) == []

    clock.advance(seconds=0.5)
    match = offer.play_bea(alice)
    assert match.kind == Match.Kind.BEA
    assert [s.bea_level for s in match.seats.all() if s.kind == "bea"] == ["hard"]
    assert not RatedMatch.objects.filter(match=match).exists()  # casual, from a rated wait
    # Still in the pool while she plays Bea.
    assert PoolEntry.objects.get(user=alice).status == PoolEntry.Status.WAITING


def test_a_second_press_goes_back_to_the_running_match(alice: User, clock: Clock) -> None:
    _join(alice)
    clock.advance(seconds=8)
    first = offer.play_bea(alice)
    assert offer.play_bea(alice) == first
    assert len(_bea_matches(alice)) == 1


def test_nobody_waiting_for_a_correspondence_game_is_offered_bea(alice: User) -> None:
    entry = _join(alice, days_per_move=1)
    assert offer.offer_for(entry) is None
    with pytest.raises(Conflict, match="live game"):
        offer.play_bea(alice)


def test_keep_waiting_leaves_the_offer_on_the_tile_smaller(
    alice: User, client: Client, clock: Clock
) -> None:
    _join(alice)
    client.force_login(alice)
    page = client.get("/lobby/").content.decode()
    assert "Bea is offered in 8 seconds." in page
    assert "Play Bea while I wait" in page and "Keep waiting" in page
    clock.advance(seconds=9)
    answer = client.post("/lobby/pool/keep-waiting", **HTMX)
    assert answer.status_code == 200
    tile = answer.content.decode()
    assert "You keep waiting for a person." in tile
    assert "Play Bea while I wait" in tile and "Keep waiting</button>" not in tile
    assert PoolEntry.objects.get(user=alice).status == PoolEntry.Status.WAITING
    assert _bea_matches(alice) == []


def test_the_play_button_takes_her_to_bea_and_a_refusal_says_why(
    alice: User, client: Client, clock: Clock
) -> None:
    _join(alice)
    client.force_login(alice)
    early = client.post("/lobby/pool/bea", **HTMX)
    assert early.status_code == 409
    assert "Bea is offered once you have waited 8 more seconds." in early.content.decode()
    assert _bea_matches(alice) == []
    clock.advance(seconds=8)
    answer = client.post("/lobby/pool/bea", **HTMX)
    [match] = _bea_matches(alice)
    assert answer.status_code == 204
    assert answer["HX-Redirect"] == f"/games/{match.public_id}/"
    table = client.get(answer["HX-Redirect"]).content.decode()
    assert "You are still in the pool for Standard to 100." in table


def test_a_person_found_is_told_at_beas_table_and_the_switch_sets_her_aside(
    alice: User,
    bob: User,
    client: Client,
    clock: Clock,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    told: list[tuple[int, dict[str, str]]] = []
    monkeypatch.setattr(notice, "page_notice", lambda user_id, html: told.append((user_id, html)))
    _join(alice)
    clock.advance(seconds=8)
    bea = offer.play_bea(alice)
    with django_capture_on_commit_callbacks(execute=True):
        paired = _join(bob)
    assert paired.status == PoolEntry.Status.PAIRED and paired.opponent == alice
    # Pushed to alice's pages (she is playing Bea), in each language; bob plays nobody else.
    [(user_id, html)] = told
    assert user_id == alice.pk
    assert "bob is waiting for you at a table (Standard to 100)." in html["en"]
    assert "bob wartet an einem Tisch auf dich" in html["de"]
    assert "Play bob now" in html["en"]

    client.force_login(alice)
    answer = client.post("/lobby/pool/switch", **HTMX)
    assert answer.status_code == 204
    assert answer["HX-Redirect"] == f"/games/{paired.match.public_id}/"
    bea.refresh_from_db()
    assert bea.status == Match.Status.RESTARTED and bea.winner_seat is None  # for nobody
    assert game_services.running_bea_match(alice) is None
    assert Match.objects.get(pk=paired.match_id).is_active
    # Her table against Bea says what became of it.
    table = client.get(f"/games/{bea.public_id}/").content.decode()
    assert "This match was set aside." in table
    assert "You left it for a person the pool found you; it counts for nobody." in table


def test_the_switch_is_refused_when_nobody_waits(alice: User, client: Client, clock: Clock) -> None:
    _join(alice)
    clock.advance(seconds=8)
    bea = offer.play_bea(alice)
    client.force_login(alice)
    answer = client.post("/lobby/pool/switch", **HTMX)
    assert "Nobody from the pool is waiting for you at a table." in answer.content.decode()
    bea.refresh_from_db()
    assert bea.is_active


def test_the_person_paired_with_a_bea_player_waits_no_longer_than_the_claim_time(
    alice: User, bob: User, clock: Clock
) -> None:
    """The abuse case: alice sits in the pool playing Bea and never comes. bob, paired with
    her, may claim the win once she has been away in her turn for CLAIM_AFTER_SECONDS."""
    _join(alice)
    clock.advance(seconds=8)
    offer.play_bea(alice)
    paired = _join(bob)
    match = Match.objects.get(pk=paired.match_id)
    bob_seat = next(s.number for s in match.seats.all() if s.user_id == bob.pk)
    # The deal waits for both players' seeds a few seconds at most, alice's never comes.
    clock.advance(seconds=SEED_WAIT_SECONDS)
    game_services.deal_overdue()
    match.refresh_from_db()
    assert load_state(match).phase == "upcard_offer"
    if load_state(match).to_act == bob_seat:
        # bob opens the hand: he passes the upcard, and it is alice's turn.
        game_services.submit(match, bob_seat, {"type": "pass"}, match.version)
        match.refresh_from_db()
    assert load_state(match).to_act == 1 - bob_seat
    # Away since the match began (she never opened its table): the claim time counts from there.
    assert not claimable(match, bob_seat, match.created_at + timedelta(seconds=CLAIM_AFTER_SECONDS))
    clock.now = match.created_at + timedelta(seconds=CLAIM_AFTER_SECONDS + 1)
    assert claimable(match, bob_seat, clock.now)
    game_services.claim_win(match, bob_seat, match.version)
    match.refresh_from_db()
    assert match.status == Match.Status.TIMED_OUT and match.winner_seat == bob_seat


def test_stop_looking_at_beas_table_leaves_the_pool_and_keeps_her(
    alice: User, client: Client, clock: Clock
) -> None:
    _join(alice)
    clock.advance(seconds=8)
    bea = offer.play_bea(alice)
    client.force_login(alice)
    answer = client.post("/lobby/pool/stop", **HTMX)
    assert "You stopped looking for a person." in answer.content.decode()
    assert PoolEntry.objects.get(user=alice).status == PoolEntry.Status.CANCELLED
    bea.refresh_from_db()
    assert bea.is_active


def test_the_person_paired_reads_that_their_opponent_is_at_beas_table_until_she_comes(
    alice: User,
    bob: User,
    clock: Clock,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    told: list[tuple[int, dict[str, str]]] = []
    monkeypatch.setattr(notice, "page_notice", lambda user_id, html: told.append((user_id, html)))
    _join(alice)
    clock.advance(seconds=8)
    offer.play_bea(alice)
    paired = _join(bob)
    table = Client()
    table.force_login(bob)
    page = table.get(f"/games/{paired.match.public_id}/").content.decode()
    assert "alice is finishing a hand against Bea, the computer, and has been told" in page
    assert "If alice is away in their turn for more than 60 seconds, you may claim" in page

    alice_client = Client()
    alice_client.force_login(alice)
    with django_capture_on_commit_callbacks(execute=True):
        alice_client.post("/lobby/pool/switch", **HTMX)
    # bob's pages are told at once: the line is gone.
    [(user_id, html)] = told
    assert user_id == bob.pk
    assert "is finishing a hand" not in html["en"] and 'id="playnow-notice"' in html["en"]
    page = table.get(f"/games/{paired.match.public_id}/").content.decode()
    assert "is finishing a hand" not in page


def test_a_claimed_match_leaves_no_line_about_beas_table(
    alice: User,
    bob: User,
    clock: Clock,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    told: list[tuple[int, dict[str, str]]] = []
    monkeypatch.setattr(notice, "page_notice", lambda user_id, html: told.append((user_id, html)))
    _join(alice)
    clock.advance(seconds=8)
    offer.play_bea(alice)
    match = Match.objects.get(pk=_join(bob).match_id)
    bob_seat = next(s.number for s in match.seats.all() if s.user_id == bob.pk)
    with django_capture_on_commit_callbacks(execute=True):
        game_services.resign(match, bob_seat, game_services.CURRENT)
    by_user = dict(told)
    assert set(by_user) == {alice.pk, bob.pk}
    for html in by_user.values():
        assert "waiting for you" not in html["en"] and "is finishing a hand" not in html["en"]
