"""Aborts (docs/moderation.md): a rated match ended before its first hand is over is rated for
nobody and counts against the player who ended it; from the third in 24 hours that player
waits before their next lobby match, 5 minutes doubling to at most an hour, and is told so at
every door, and on the lobby page above its buttons."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING

import pytest
from django.test import Client

from games import services
from games.models import Match
from games.services import endings
from lobby.models import Challenge, PoolEntry, Seek
from lobby.ratings.aborts import aborts_since, wait_of
from lobby.ratings.models import Abort, RatedMatch
from tests.api.conftest import Api, body, token_for
from tests.seeds import deal

from .correspondence_helpers import Clock
from .lobby_doors import DOORS, WAYS, knock
from .lobby_helpers import HTMX, online
from .rating_helpers import challenge_match, play, play_moves, rating, resign, state_of

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db

WAIT_5 = (
    "You ended 3 rated matches before their first hand was over in the last 24 hours. "
    "You can start your next lobby match in 5 minutes."
)


@pytest.fixture(autouse=True)
def _many_challenges(settings) -> None:  # type: ignore[no-untyped-def]
    # The challenge limits count in one frozen window here (tests/conftest.py); these tests
    # send more challenges than a minute allows, to abort one match after another.
    settings.CHALLENGE_LIMIT_PER_SENDER = 100
    settings.CHALLENGE_LIMIT_PER_TARGET = 100


def _outcome(match: Match) -> str:
    return RatedMatch.objects.get(match=match).outcome


def _aborters(match: Match) -> list[str]:
    return [a.user.username for a in Abort.objects.filter(match=match).select_related("user")]


def _abort(alice: User, bob: User) -> Match:
    """alice challenges bob, rated, looks at her hand and resigns: an abort of hers."""
    match = challenge_match(alice, bob)
    deal(match)
    resign(match, 0)
    return match


def test_resigning_before_the_first_hand_is_over_aborts_and_counts(
    alice: User, bob: User, clock: Clock
):
    match = challenge_match(alice, bob)
    play_moves(match, 5)  # more than the review's two moves each, the hand still going
    resign(match, 0)
    assert _outcome(match) == "aborted" and rating(alice) is None and rating(bob) is None
    assert _aborters(match) == ["alice"]
    [abort] = aborts_since(alice.pk, clock.now - timedelta(days=1))
    assert abort.match == match and abort.created_at == clock.now
    assert not aborts_since(bob.pk, clock.now - timedelta(days=1))


@pytest.mark.parametrize("way", WAYS)
def test_a_resignation_by_any_door_is_counted(way: str, alice: User, bob: User):
    match = challenge_match(alice, bob)
    deal(match)
    match.refresh_from_db()
    if way == "api":
        answer = Api(token_for(bob)).post(
            f"/matches/{match.public_id}/resign", {"version": match.version}
        )
    else:
        client = Client()
        client.force_login(bob)
        form = {"confirm": "1", "version": str(match.version)}
        answer = client.post(
            f"/games/{match.public_id}/resign", form, **(HTMX if way == "htmx" else {})
        )
    assert answer.status_code in (200, 302)
    assert _outcome(match) == "aborted" and _aborters(match) == ["bob"]


def test_seat_1_looking_at_its_hand_and_resigning_is_its_abort(alice: User, bob: User):
    match = challenge_match(alice, bob)
    deal(match)
    resign(match, 1)
    assert _outcome(match) == "aborted" and _aborters(match) == ["bob"]


def test_walking_out_is_an_abort(alice: User, bob: User):
    match = challenge_match(alice, bob)
    play_moves(match, 2)
    match.refresh_from_db()
    services.abandon(match, 1, match.version)
    assert _outcome(match) == "aborted" and _aborters(match) == ["bob"]


def test_letting_the_time_run_out_is_the_absent_players_abort(
    alice: User, bob: User, monkeypatch: pytest.MonkeyPatch
):
    match = challenge_match(alice, bob)
    play_moves(match, 2)
    away = state_of(match).to_act
    monkeypatch.setattr(endings, "claimable", lambda m, seat: True)
    services.claim_win(match, 1 - away, match.version)
    assert _outcome(match) == "aborted"
    assert _aborters(match) == [("alice", "bob")[away]]


def test_after_the_first_hand_a_resignation_is_rated_and_no_abort(alice: User, bob: User):
    match = challenge_match(alice, bob)
    play(match)
    resign(match, 0)
    assert _outcome(match) == "rated" and not Abort.objects.exists()


def test_a_casual_match_resigned_at_once_is_no_abort(alice: User, bob: User):
    match = challenge_match(alice, bob, rated=False)
    deal(match)
    resign(match, 0)
    assert not Abort.objects.exists()


def test_the_wait_starts_at_the_third_abort_and_doubles_to_an_hour(
    alice: User, bob: User, clock: Clock
):
    for _ in range(2):
        _abort(alice, bob)
    assert wait_of(alice.pk) is None
    minutes = []
    for _ in range(6):
        _abort(alice, bob)
        wait = wait_of(alice.pk)
        assert wait is not None
        minutes.append(wait.seconds(clock.now) // 60)
        clock.advance(seconds=wait.seconds(clock.now))  # served: free again
        assert wait_of(alice.pk) is None
    assert minutes == [5, 10, 20, 40, 60, 60]
    # A day later they have left the count.
    clock.advance(hours=24)
    assert wait_of(alice.pk) is None
    _abort(alice, bob)
    assert wait_of(alice.pk) is None  # one in the last 24 hours


def _three_aborts(alice: User, bob: User) -> None:
    for _ in range(3):
        _abort(alice, bob)


@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("door", DOORS)
def test_the_wait_holds_at_every_door(
    way: str, door: str, alice: User, bob: User, carol: User, clock: Clock
):
    _three_aborts(alice, bob)
    matches = Match.objects.count()
    answer = knock(way, door, alice, carol, rated=False)  # casual too: any lobby match
    assert answer.status_code == 429 and answer["Retry-After"] == "300"
    assert WAIT_5 in answer.content.decode()
    if way == "api":
        assert body(answer) == {"code": "abort_wait", "message": WAIT_5}
    assert Match.objects.count() == matches
    assert not Seek.objects.filter(poster=alice).exists()
    assert not PoolEntry.objects.filter(user=alice).exists()
    clock.advance(minutes=5)
    assert knock(way, door, alice, carol, rated=False).status_code in (200, 201, 204, 302)


def test_the_api_says_the_wait_before_anyone_knocks(alice: User, bob: User, clock: Clock):
    api = Api(token_for(alice))
    assert body(api.get("/me"))["lobby_wait"] is None
    _three_aborts(alice, bob)
    wait = body(api.get("/me"))["lobby_wait"]
    assert wait["aborts"] == 3 and wait["message"] == WAIT_5
    until = datetime.fromisoformat(wait["until"].replace("Z", "+00:00"))
    assert abs(until - (clock.now + timedelta(minutes=5))) < timedelta(milliseconds=1)


def test_a_waiting_players_challenge_or_seek_cannot_be_taken(
    alice: User, bob: User, carol: User, clock: Clock
):
    _three_aborts(alice, bob)
    # Sent before her third abort (stored here as they were), accepted after it: the match
    # would be hers too.
    online(alice, carol)
    sent = Challenge.objects.create(
        challenger=alice,
        challenged=carol,
        preset="standard",
        target=100,
        expires_at=clock.now + timedelta(minutes=2),
    )
    seek = Seek.objects.create(poster=alice, preset="standard", target=100, days_per_move=3)
    client = Client()
    client.force_login(carol)
    for path in (f"/lobby/challenges/{sent.pk}/accept", f"/lobby/seeks/{seek.pk}/accept"):
        answer = client.post(path)
        assert answer.status_code == 409, path
        assert "alice cannot start a new match right now." in answer.content.decode()
        assert "5 minutes" not in answer.content.decode()  # hers to know


def test_the_lobby_page_shows_the_wait_above_the_buttons(alice: User, bob: User, clock: Clock):
    _three_aborts(alice, bob)
    client = Client()
    client.force_login(alice)
    page = client.get("/lobby/").content.decode()
    pool = page[page.index('id="lobby-pool"') : page.index("pool-tiles")]
    assert f'<p class="notice error lobby-wait" data-lobby-wait>{WAIT_5}</p>' in pool
    german = client.get("/lobby/", headers={"Accept-Language": "de"}).content.decode()
    assert (
        "Du hast in den letzten 24 Stunden 3 gewertete Partien beendet, bevor ihre erste Runde "
        "vorbei war. Deine nächste Partie in der Lobby kannst du in 5 Minuten beginnen."
    ) in german
    clock.advance(minutes=5)
    assert "data-lobby-wait" not in client.get("/lobby/").content.decode()


def test_the_table_tells_who_aborted(alice: User, bob: User):
    match = _abort(alice, bob)
    mine = Client()
    mine.force_login(alice)
    page = mine.get(f"/games/{match.public_id}/").content.decode()
    assert "Aborted before the first hand was over: not rated." in page
    assert "It counts as an abort of yours" in page
    theirs = Client()
    theirs.force_login(bob)
    assert (
        "It counts as an abort for alice."
        in theirs.get(f"/games/{match.public_id}/").content.decode()
    )
