"""The completion badge: the share of a player's last 50 finished lobby matches they did not
abandon or lose on time, in the lobby's players list and on the profile page."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.models import Match, Seat
from lobby import regions
from lobby.people import completion
from tests.lobby.lobby_helpers import online

pytestmark = pytest.mark.django_db

S = Match.Status


def finished(
    player: User, opponent: User, status: str = S.FINISHED, won: bool = True, **extra: Any
) -> Match:
    """A lobby match ``player`` (seat 0) played to its end against ``opponent``, ``days_ago``."""
    days_ago = extra.pop("days_ago", 0)
    match = Match.objects.create(
        kind=extra.pop("kind", Match.Kind.LOBBY),
        rules={"name": "standard", "target": 100},
        status=status,
        winner_seat=None if status == S.ACTIVE else (0 if won else 1),
        finished_at=None if status == S.ACTIVE else timezone.now() - timedelta(days=days_ago),
    )
    Seat.objects.create(match=match, number=0, kind=Seat.Kind.PLAYER, user=player)
    Seat.objects.create(match=match, number=1, kind=Seat.Kind.PLAYER, user=opponent)
    return match


def _eight_with_two_walkouts(bob: User, carol: User) -> None:
    """bob: 8 finished lobby matches; he abandoned one and lost one on time (75%)."""
    finished(bob, carol, S.ABANDONED, won=False)
    finished(bob, carol, S.TIMED_OUT, won=False)
    finished(bob, carol, S.RESIGNED, won=False)  # a resignation is an ordinary loss
    finished(bob, carol, S.FINISHED, won=False)
    finished(bob, carol, S.ABANDONED, won=True)  # carol walked out of this one
    finished(bob, carol, S.TIMED_OUT, won=True)  # and let this one's clock run out
    finished(bob, carol)
    finished(bob, carol)


def _badge(html: str, username: str) -> str | None:
    """The completion badge in ``username``'s row of the players list."""
    row = re.search(rf'data-player="{username}">(.*?)</li>', html, re.S)
    assert row, username
    badge = re.search(r'<span class="badge completion"[^>]*>(.*?)<span', row.group(1), re.S)
    return badge.group(1).strip() if badge else None


def test_it_counts_abandoned_and_timed_out_losses_only(bob: User, carol: User) -> None:
    _eight_with_two_walkouts(bob, carol)
    # carol won two on walk-outs and walked out of two herself.
    assert completion.of_players([bob.pk, carol.pk]) == {bob.pk: 75, carol.pk: 75}


def test_a_resignation_does_not_count_against(bob: User, carol: User) -> None:
    for _ in range(3):
        finished(bob, carol, S.RESIGNED, won=False)
    assert completion.of(bob.pk) == 100


def test_it_rounds_down_so_100_means_never(bob: User, carol: User) -> None:
    finished(bob, carol, S.ABANDONED, won=False)
    for _ in range(49):
        finished(bob, carol)
    assert completion.of(bob.pk) == 98


def test_only_the_last_50_count(bob: User, carol: User) -> None:
    finished(bob, carol, S.ABANDONED, won=False, days_ago=30)
    finished(bob, carol, S.TIMED_OUT, won=False, days_ago=20)
    for _ in range(49):
        finished(bob, carol, days_ago=1)
    # The timed-out loss is the 50th most recent; the abandoned one is past it.
    assert completion.of(bob.pk) == 98
    finished(bob, carol)
    assert completion.of(bob.pk) == 100


def test_other_matches_do_not_count(alice: User, bob: User, carol: User) -> None:
    finished(bob, carol, S.ACTIVE)
    finished(bob, carol, S.RESTARTED, won=False)
    finished(bob, carol, S.ABANDONED, won=False, kind=Match.Kind.PRIVATE)
    finished(bob, carol, S.ABANDONED, won=False, kind=Match.Kind.BEA)
    assert completion.of_players([alice.pk, bob.pk]) == {alice.pk: None, bob.pk: None}
    finished(bob, carol)
    assert completion.of(bob.pk) == 100


def test_the_lobby_list_shows_it(client: Client, alice: User, bob: User, carol: User) -> None:
    _eight_with_two_walkouts(bob, carol)
    online(alice, bob, carol)
    client.force_login(alice)
    html = client.get("/lobby/").content.decode()
    assert _badge(html, "bob") == "75% completed"
    assert _badge(html, "carol") == "75% completed"
    # alice has not finished a lobby match: no badge rather than a made-up number.
    assert _badge(html, "alice") is None
    explanation = (
        "Share of their last 50 finished lobby matches that they did not abandon or lose on time"
    )
    assert f'title="{explanation}"' in html
    assert f'<span class="visually-hidden"> ({explanation})</span>' in html


def test_the_profile_page_shows_it(client: Client, alice: User, bob: User, carol: User) -> None:
    _eight_with_two_walkouts(bob, carol)
    html = client.get("/players/bob/").content.decode()
    assert re.search(r'data-completion="75"[^>]*>75% completed<', html)
    assert "did not abandon or lose on time" in html
    assert "completed" not in client.get("/players/alice/").content.decode()


def test_it_speaks_german_too(client: Client, bob: User, carol: User) -> None:
    _eight_with_two_walkouts(bob, carol)
    client.cookies["django_language"] = "de"
    html = client.get("/players/bob/").content.decode()
    assert "75 % abgeschlossen" in html


def test_the_players_list_reads_it_in_one_query(alice: User, django_user_model: type[User]) -> None:
    def queries_for(count: int) -> int:
        players = [django_user_model.objects.create_user(f"p{count}x{i}") for i in range(count)]
        for i, player in enumerate(players):
            finished(player, alice, S.ABANDONED if i % 2 else S.FINISHED, won=False)
        online(alice, *players)
        with CaptureQueriesContext(connection) as queries:
            html = regions.render_regions(alice, ["players"])
        # alice finished all those matches too.
        assert html.count('class="badge completion"') == count + 1
        for player in players:  # off the list again for the next count
            player.presences.all().delete()
        return len(queries)

    assert queries_for(2) == queries_for(7)
