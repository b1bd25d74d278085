"""Leaderboards: the top 50 of a preset among established, active players; paged; cached and
dropped when a rated result comes in; linked from the lobby."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from games.models import Match
from lobby.ratings.models import Rating, RatingChange
from lobby.ratings.reads import leaders

from .lobby_helpers import online
from .rating_helpers import challenge_match, play, resign

pytestmark = pytest.mark.django_db


@pytest.fixture
def matches() -> list[Match]:
    """Ten finished lobby matches for the rated results the tests store."""
    return [
        Match.objects.create(kind=Match.Kind.LOBBY, rules={"name": "standard"}, status="resigned")
        for _ in range(10)
    ]


def _regular(
    name: str,
    rating: float,
    matches: list[Match],
    *,
    rd: float = 80,
    recent: int = 10,
    days_ago: float = 1,
    preset: str = "standard",
):  # type: ignore[no-untyped-def]
    user = get_user_model().objects.create_user(username=name)
    Rating.objects.create(user=user, preset=preset, rating=rating, rd=rd, games=recent)
    for match in matches[:recent]:
        change = RatingChange.objects.create(
            user=user,
            match=match,
            preset=preset,
            score=1,
            before=rating,
            after=rating,
            rd_after=rd,
        )
        RatingChange.objects.filter(pk=change.pk).update(
            created_at=timezone.now() - timedelta(days=days_ago)
        )
    return user


def _names(preset: str = "standard") -> list[str]:
    return [row.username for row in leaders(preset)]


def test_only_established_and_active_players_are_listed(matches):
    _regular("steady", 1900, matches)
    _regular("unsure", 2100, matches, rd=110)  # provisional: 110 is not below 110
    _regular("few", 2000, matches, recent=9)
    _regular("away", 1950, matches, days_ago=31)
    _regular("classic", 2200, matches, preset="classic")
    _regular("second", 1700, matches)
    assert _names() == ["steady", "second"]
    assert _names("classic") == ["classic"]
    top = leaders("standard")[0]
    assert (top.rank, top.rating, top.recent) == (1, 1900, 10)


def test_the_board_holds_fifty_in_pages_of_twenty_five(matches, alice):
    for n in range(55):
        _regular(f"p{n:02}", 1500 + n, matches)
    client = Client()
    client.force_login(alice)
    first = client.get("/leaderboards/standard/").content.decode()
    assert 'data-rank="1"' in first and 'data-rank="25"' in first and 'data-rank="26"' not in first
    assert first.index("p54") < first.index("p53") and "Page 1 of 2" in first
    second = client.get("/leaderboards/standard/?page=2").content.decode()
    assert 'data-rank="26"' in second and 'data-rank="50"' in second and "p05" in second
    assert "p04" not in second and 'rel="prev"' in second and 'rel="next"' not in second
    for bad in ("3", "0", "x"):
        assert client.get(f"/leaderboards/standard/?page={bad}").status_code == 404
    assert client.get("/leaderboards/chess/").status_code == 404


def test_the_api_pages_the_same_board(matches, alice):
    from tests.api.conftest import Api, body, token_for

    for n in range(30):
        _regular(f"p{n:02}", 1500 + n, matches)
    api = Api(token_for(alice))
    one = body(api.get("/leaderboards/standard"))
    assert (one["page"], one["pages"], len(one["players"])) == (1, 2, 25)
    assert one["players"][0] == {
        "rank": 1,
        "username": "p29",
        "display_name": "p29",
        "rating": 1529,
        "rd": 80,
        "provisional": False,
        "display": "1529",
        "recent": 10,
        "bot": False,
    }
    two = body(api.get("/leaderboards/standard", page=2))
    assert [p["rank"] for p in two["players"]] == [26, 27, 28, 29, 30]
    assert body(api.get("/leaderboards/standard", page=3))["players"] == []


def test_a_rated_result_drops_the_cached_board(
    matches, alice, bob, django_capture_on_commit_callbacks
):
    _regular("steady", 1900, matches)
    assert _names() == ["steady"]
    _regular("newcomer", 2000, matches)
    assert _names() == ["steady"]  # cached
    with django_capture_on_commit_callbacks(execute=True):
        match = challenge_match(alice, bob)
        play(match)
        resign(match, 1)
    assert _names() == ["newcomer", "steady"]


def test_the_lobby_links_the_leaderboards(alice):
    online(alice)
    client = Client()
    client.force_login(alice)
    assert 'href="/leaderboards/standard/"' in client.get("/lobby/").content.decode()


def test_a_bot_is_listed_with_its_badge(matches, alice):
    from tests.api.conftest import Api, body, token_for

    bot = _regular("botty", 1900, matches)
    bot.profile.plays_by_bot = True
    bot.profile.save()
    _regular("human", 1800, matches)
    client = Client()
    client.force_login(alice)
    page = client.get("/leaderboards/standard/").content.decode()
    first, second = page.split('data-rank="1">')[1].split('data-rank="2">')
    assert 'class="badge bot"' in first and "botty" in first
    assert 'class="badge bot"' not in second.split("</li>")[0]
    players = body(Api(token_for(alice)).get("/leaderboards/standard"))["players"]
    assert [(p["username"], p["bot"]) for p in players] == [("botty", True), ("human", False)]


def test_a_closed_account_leaves_the_boards_at_once(matches, django_capture_on_commit_callbacks):
    closing = _regular("closing", 2000, matches)
    leaving = _regular("leaving", 1950, matches)
    _regular("steady", 1900, matches)
    assert _names() == ["closing", "leaving", "steady"]  # and cached
    with django_capture_on_commit_callbacks(execute=True):
        closing.is_active = False
        closing.save()
    assert _names() == ["leaving", "steady"]
    with django_capture_on_commit_callbacks(execute=True):
        leaving.delete()
    assert _names() == ["steady"]
