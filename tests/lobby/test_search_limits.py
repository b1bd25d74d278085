"""Player searches are limited per player and per client address, the search page, the lobby's
search box (htmx) and the API counting together. The abuse case (issue 39, finding 9): a script
walked the two-letter prefixes, 674 searches in 89 s, and so listed all 74 accounts and who of
them was online. A refused search is a 429 with ``Retry-After`` and a message, and lists nobody."""

from __future__ import annotations

import json
import string
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest
from django.core.cache import cache
from django.test import Client

from ginsite import settings as shipped
from lobby.accounts import tokens
from tests.lobby.lobby_helpers import HTMX, signed_in

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.http import HttpResponse

pytestmark = pytest.mark.django_db

HERE, ELSEWHERE = "203.0.113.5", "198.51.100.7"
WINDOW = 60  # SEARCH_LIMIT_WINDOW; the tests' limits clock is one second into its window


@pytest.fixture(autouse=True)
def _shipped_limits(settings) -> Iterator[None]:  # type: ignore[no-untyped-def]
    """The limits as the site ships them (the suite's settings lift them), counted afresh."""
    for name in ("SEARCH_LIMIT_PER_PLAYER", "SEARCH_LIMIT_PER_ADDRESS"):
        setattr(settings, name, getattr(shipped, name))
    cache.clear()
    yield
    cache.clear()


class Doors:
    """One player's three ways to search, all from one client address."""

    def __init__(self, user: User, address: str = HERE) -> None:
        self.browser = signed_in(Client(REMOTE_ADDR=address), user)
        self.api = Client(REMOTE_ADDR=address)
        self.token = tokens.create(user, "t")[1]

    def page(self, q: str) -> HttpResponse:
        return self.browser.get("/players/", {"q": q})

    def htmx(self, q: str) -> HttpResponse:
        return self.browser.get("/players/", {"q": q}, **HTMX)

    def json(self, q: str) -> HttpResponse:
        headers = {"Authorization": f"Bearer {self.token}"}
        return self.api.get("/api/v1/players", {"q": q}, headers=headers)

    def each(self) -> list:  # type: ignore[type-arg]
        return [self.page, self.htmx, self.json]


def _lists_alice(response: HttpResponse) -> bool:
    if response["Content-Type"].startswith("application/json"):
        found = json.loads(response.content)
        return isinstance(found, list) and any(p["username"] == "alice" for p in found)
    return 'data-player="alice"' in response.content.decode()


def test_the_shipped_limits_are_the_documented_ones() -> None:
    assert (shipped.SEARCH_LIMIT_PER_PLAYER, shipped.SEARCH_LIMIT_PER_ADDRESS) == (20, 60)
    assert shipped.SEARCH_LIMIT_WINDOW == WINDOW


def test_the_three_doors_count_together_and_each_refuses_past_the_limit(
    alice: User, bob: User
) -> None:
    doors = Doors(bob)
    for i in range(20):
        found = doors.each()[i % 3]("al")
        assert found.status_code == 200 and _lists_alice(found)
    for door in doors.each():
        refused = door("al")
        assert refused.status_code == 429
        assert refused["Retry-After"] == str(WINDOW - 1)
        assert not _lists_alice(refused)
    assert json.loads(doors.json("al").content)["code"] == "rate_limited"
    says = f"You have searched for players too often just now. Try again in {WINDOW - 1} seconds."
    assert says in doors.htmx("al").content.decode()
    assert says in doors.page("al").content.decode()


def test_the_review_s_walk_over_two_letter_prefixes_stops_at_twenty(
    alice: User, bob: User, carol: User
) -> None:
    doors = Doors(carol)
    answers = [doors.json(a + b).status_code for a in string.ascii_lowercase for b in "eloa"]
    assert answers == [200] * 20 + [429] * (len(answers) - 20)
    # "al" and "bo" come after the twentieth search: neither alice nor bob was listed.
    assert not _lists_alice(doors.json("al"))


def test_accounts_from_one_address_share_its_budget(
    alice: User, bob: User, carol: User, django_user_model: type[User]
) -> None:
    for name in ("dave", "erin", "frank"):
        searcher = Doors(django_user_model.objects.create_user(name, password="x"))
        assert all(searcher.json("al").status_code == 200 for _ in range(20))
    refused = Doors(carol).json("al")
    assert refused.status_code == 429 and not _lists_alice(refused)
    assert (
        "Too many player searches came from your network" in json.loads(refused.content)["message"]
    )
    assert Doors(carol, ELSEWHERE).json("al").status_code == 200


def test_a_search_refused_for_its_length_does_not_count(alice: User, bob: User) -> None:
    doors = Doors(bob)
    for _ in range(30):
        assert doors.json("a").status_code == 400
        assert doors.htmx("a").status_code == 400
    assert _lists_alice(doors.json("al"))


def test_a_german_player_reads_the_refusal_in_german(alice: User, bob: User) -> None:
    doors = Doors(bob)
    for _ in range(20):
        doors.htmx("al")
    doors.browser.cookies["django_language"] = "de"
    refused = doors.htmx("al")
    assert refused.status_code == 429
    assert "Du hast gerade zu oft nach Spielern gesucht." in refused.content.decode()
