"""A player's page: their record in the lobby per preset, their recent lobby matches, the
visitor's head-to-head record against them and a Challenge button; never a private table's,
a lesson's or Bea's match, and never a card."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games import services
from games.models import Match, Seat
from tests.games.live_helpers import lobby_match
from tests.lobby.lobby_helpers import online, signed_in

pytestmark = pytest.mark.django_db

CARD = re.compile(r"\b[2-9TJQKA][SHDC]\b")


def _played(kind: str, first: User, second: User, preset: str = "standard") -> Match:
    """A match of ``kind`` between the two, seat 0 resigned (``second`` won)."""
    match = services.create_match(
        kind,
        services.ruleset(preset, 100),
        (
            services.SeatSpec(Seat.Kind.PLAYER, user=first),
            services.SeatSpec(Seat.Kind.PLAYER, user=second),
        ),
    )
    services.resign(match, 0, match.version)
    return match


@pytest.fixture
def history(alice: User, bob: User, carol: User) -> dict[str, Match]:
    """bob beat alice twice at standard, alice beat bob once at classic, carol beat alice once
    at simple; and bob beat alice at a private table."""
    return {
        "lobby1": _played(Match.Kind.LOBBY, alice, bob),
        "lobby2": _played(Match.Kind.LOBBY, alice, bob),
        "lobby3": _played(Match.Kind.LOBBY, bob, alice, "classic"),
        "lobby4": _played(Match.Kind.LOBBY, alice, carol, "simple"),
        "private": _played(Match.Kind.PRIVATE, alice, bob),
    }


def _page(viewer: User | None, username: str) -> str:
    client = signed_in(Client(), viewer) if viewer else Client()
    response = client.get(f"/players/{username}/")
    assert response.status_code == 200
    return response.content.decode()


def _record(html: str, preset: str) -> tuple[str, str]:
    row = re.search(rf'data-preset="{preset}">.*?data-won>(\d+)<.*?data-lost>(\d+)<', html, re.S)
    assert row is not None
    return row.group(1), row.group(2)


def test_it_shows_the_record_per_preset_in_the_lobby(history: dict, carol: User) -> None:
    html = _page(carol, "alice")
    # The private table's loss does not count: it is nobody else's business.
    assert _record(html, "standard") == ("0", "2")
    assert _record(html, "classic") == ("1", "0")
    assert _record(html, "simple") == ("0", "1")


def test_it_lists_recent_lobby_matches_only(history: dict, carol: User) -> None:
    html = _page(carol, "alice")
    for name in ("lobby1", "lobby2", "lobby3", "lobby4"):
        assert history[name].public_id in html
    assert history["private"].public_id not in html


def test_it_never_lists_bea_or_lesson_matches(alice: User, carol: User) -> None:
    bea = services.start_bea_match(alice, "standard", 100, "easy")
    html = _page(carol, "alice")
    assert bea.public_id not in html
    assert "No matches in the lobby yet." in html


def test_it_shows_the_head_to_head_record_with_the_visitor(history: dict, bob: User) -> None:
    html = _page(bob, "alice")
    assert 'id="head-to-head" data-won="2" data-lost="1"' in html
    assert "You against alice: 2 won, 1 lost." in html


def test_it_offers_a_challenge_but_no_head_to_head_on_your_own_page(
    history: dict, alice: User, bob: User
) -> None:
    assert 'action="/lobby/challenges/"' in _page(bob, "alice")
    own = _page(alice, "alice")
    assert 'id="head-to-head"' not in own
    assert 'action="/lobby/challenges/"' not in own


def test_a_running_lobby_match_is_listed_without_a_card(
    alice: User, bob: User, carol: User
) -> None:
    match = lobby_match(alice, bob)
    html = _page(carol, "alice")
    assert match.public_id in html and "in progress" in html
    section = html[html.index('id="player-recent"') :]
    assert not CARD.search(section)


def test_a_visitor_without_an_account_sees_the_record_but_no_buttons(history: dict) -> None:
    html = _page(None, "alice")
    assert _record(html, "standard") == ("0", "2")
    assert "Follow alice" not in html and 'id="head-to-head"' not in html


def test_the_lobby_rows_lead_to_the_page(alice: User, bob: User) -> None:
    online(alice, bob)
    html = signed_in(Client(), alice).get("/lobby/").content.decode()
    assert 'href="/players/bob/"' in html
