"""Quick messages at the table: the fixed set offered to the players of a match between two
people, refused with a clear error otherwise (an unknown id, a watcher, Bea, too soon), muted
per reader."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest
from django.core.cache import cache
from django.test import Client
from django.utils import translation

from games import services
from games.live import quick_messages
from games.models import MessageMute

from .live_helpers import lobby_match, signed_in
from .test_private import current, guest_joins, hosted_by

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from games.models import Match

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def _no_cooldown_left() -> Iterator[None]:
    # The cooldowns live in the cache; no test inherits another's.
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def match(alice: User, bob: User) -> Match:
    return lobby_match(alice, bob)


@pytest.fixture
def told(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, str]]:
    """What the table's group was told: (seat, message) of each quick message."""
    heard: list[tuple[int, str]] = []

    def send(group: str, message: dict) -> None:
        if message.get("type") == "match.quick_message":
            heard.append((message["seat"], message["message"]))

    monkeypatch.setattr(quick_messages, "group_send_after_commit", send)
    return heard


def _say(client: Client, match: Match, message: str):  # type: ignore[no-untyped-def]
    return client.post(f"/games/{match.public_id}/messages", {"message": message}, **HTMX)


def test_the_players_table_offers_the_fixed_set(match: Match, alice: User) -> None:
    html = signed_in(alice).get(f"/games/{match.public_id}/").content.decode()
    for key, text in quick_messages.MESSAGES.items():
        assert f'name="message" value="{key}">{text}<' in html
    assert 'id="quick-bubble"' in html and "Mute quick messages" in html


def test_a_watcher_sees_no_buttons_but_may_mute(match: Match, carol: User) -> None:
    html = signed_in(carol).get(f"/games/{match.public_id}/").content.decode()
    assert 'name="message"' not in html
    assert 'id="quick-bubble"' in html and "Mute quick messages" in html


def test_a_match_against_bea_has_none(alice: User) -> None:
    match = services.start_bea_match(alice, "standard", 100, "easy")
    html = signed_in(alice).get(f"/games/{match.public_id}/").content.decode()
    assert 'id="quick-messages"' not in html
    response = _say(signed_in(alice), match, "good_luck")
    assert response.status_code == 403
    assert "between two people" in response.content.decode()


def test_a_player_says_one_and_the_table_is_told(
    match: Match, alice: User, told: list[tuple[int, str]]
) -> None:
    response = _say(signed_in(alice), match, "nice_gin")
    assert response.status_code == 204
    assert told == [(0, "nice_gin")]


def test_an_unknown_id_is_a_clear_error_and_nothing_is_said(
    match: Match, alice: User, told: list[tuple[int, str]]
) -> None:
    for message in ("hello you", "", "<b>x</b>"):
        response = _say(signed_in(alice), match, message)
        assert response.status_code == 400
        assert "Unknown message" in response.content.decode()
    assert told == []
    # An unknown id costs no turn of the rate limit.
    assert _say(signed_in(alice), match, "good_luck").status_code == 204


def test_a_watcher_cannot_send(match: Match, carol: User, told: list[tuple[int, str]]) -> None:
    response = _say(signed_in(carol), match, "good_game")
    assert response.status_code == 403
    assert "watchers" in response.content.decode()
    assert told == []


def test_one_message_per_three_seconds_per_player(
    match: Match, alice: User, bob: User, told: list[tuple[int, str]]
) -> None:
    client = signed_in(alice)
    assert _say(client, match, "good_luck").status_code == 204
    again = _say(client, match, "oops")
    assert again.status_code == 429
    assert 1 <= int(again["Retry-After"]) <= quick_messages.COOLDOWN_SECONDS
    assert "One quick message every 3 seconds" in again.content.decode()
    # The other player has a limit of their own.
    assert _say(signed_in(bob), match, "good_luck").status_code == 204
    assert told == [(0, "good_luck"), (1, "good_luck")]


def test_the_limit_is_per_player_across_matches(
    alice: User, bob: User, carol: User, told: list[tuple[int, str]]
) -> None:
    first = lobby_match(alice, bob)
    services.resign(first, 0, first.version)
    second = lobby_match(carol, alice)
    assert _say(signed_in(alice), first, "good_game").status_code == 204
    assert _say(signed_in(alice), second, "good_luck").status_code == 429


def test_mute_is_per_match_and_per_reader(match: Match, alice: User, bob: User) -> None:
    client = signed_in(bob)
    response = client.post(f"/games/{match.public_id}/messages/mute", {"on": "1"}, **HTMX)
    assert response.status_code == 200
    assert "Show quick messages" in response.content.decode()
    assert quick_messages.is_muted(match.pk, "seat:1")
    assert not quick_messages.is_muted(match.pk, "seat:0")
    assert quick_messages.bubble(match.pk, 1, bob, 0, "good_luck") == ""
    assert "Good luck" in quick_messages.bubble(match.pk, 0, alice, 0, "good_luck")
    client.post(f"/games/{match.public_id}/messages/mute", {"on": "0"})
    assert not MessageMute.objects.exists()


def test_the_bubble_is_in_the_readers_language(match: Match, bob: User) -> None:
    with translation.override("de"):
        html = quick_messages.bubble(match.pk, 1, bob, 0, "good_game")
    assert "Gutes Spiel" in html and "Good game" not in html


def test_at_a_private_table_they_wait_for_the_friend_then_a_guest_may_send(
    alice: User, told: list[tuple[int, str]]
) -> None:
    table, match = hosted_by(alice)
    host = signed_in(alice)
    html = host.get(f"/games/{match.public_id}/").content.decode()
    assert 'id="quick-messages"' in html  # shown before the friend sits down...
    waiting = _say(host, match, "good_luck")
    assert waiting.status_code == 403  # ...and refused until then, with the reason
    assert "between two people" in waiting.content.decode()
    guest = guest_joins(table)
    assert _say(guest, current(table), "good_luck").status_code == 204
    assert told == [(1, "good_luck")]
