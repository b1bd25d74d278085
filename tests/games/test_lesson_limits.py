"""Starting the lesson is limited like starting a match against Bea: per browser (its guest key
holds the lesson, signed in or not) and, for visitors without an account, per client address.
Before, 60 ``POST /games/lesson/`` from fresh browsers at one address made 60 lesson matches
in 3 s (issue 39, finding 5). A refusal is a page saying how long to wait (429 with
Retry-After), and changes nothing."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest
from django.core.cache import cache
from django.test import Client

from games.models import Match
from ginsite import settings as shipped

from .live_helpers import signed_in

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db

HERE, ELSEWHERE = "203.0.113.5", "198.51.100.7"
WINDOW = 600  # LESSON_LIMIT_WINDOW; the tests' limits clock is one second into its window


@pytest.fixture(autouse=True)
def _shipped_limits(settings) -> Iterator[None]:  # type: ignore[no-untyped-def]
    """The limits as the site ships them (the suite's settings lift them), counted afresh."""
    for name in ("LESSON_LIMIT_PER_BROWSER", "LESSON_LIMIT_PER_ADDRESS"):
        setattr(settings, name, getattr(shipped, name))
    cache.clear()
    yield
    cache.clear()


def _lessons() -> int:
    return Match.objects.filter(kind=Match.Kind.LESSON).count()


def test_the_shipped_limits_are_the_documented_ones() -> None:
    assert (shipped.LESSON_LIMIT_PER_BROWSER, shipped.LESSON_LIMIT_PER_ADDRESS) == (10, 20)
    assert shipped.LESSON_LIMIT_WINDOW == WINDOW


def test_the_review_s_sixty_fresh_browsers_make_twenty_lessons() -> None:
    answers = [Client(REMOTE_ADDR=HERE).post("/games/lesson/").status_code for _ in range(60)]
    assert answers == [302] * 20 + [429] * 40
    assert _lessons() == 20
    refused = Client(REMOTE_ADDR=HERE).post("/games/lesson/")
    assert refused["Retry-After"] == str(WINDOW - 1)
    page = refused.content.decode()
    assert "Too many lessons were started from your network just now." in page
    assert f"Try again in {WINDOW - 1} seconds, or sign in." in page
    assert _lessons() == 20
    # Another address still starts one.
    assert Client(REMOTE_ADDR=ELSEWHERE).post("/games/lesson/").status_code == 302


def test_a_signed_in_player_is_not_held_back_by_the_guests_at_their_address(alice: User) -> None:
    for _ in range(20):
        Client(REMOTE_ADDR=HERE).post("/games/lesson/")
    assert Client(REMOTE_ADDR=HERE).post("/games/lesson/").status_code == 429
    player = signed_in(alice)
    player.defaults["REMOTE_ADDR"] = HERE
    assert player.post("/games/lesson/").status_code == 302


def test_one_browser_starts_the_lesson_at_most_ten_times_in_the_window(alice: User) -> None:
    for browser in (Client(REMOTE_ADDR=HERE), signed_in(alice)):
        answers = [browser.post("/games/lesson/").status_code for _ in range(11)]
        assert answers == [302] * 10 + [429]
        assert "You have started the lesson too often just now." in (
            browser.post("/games/lesson/").content.decode()
        )
    assert _lessons() == 2  # each browser keeps its one lesson


def test_an_htmx_refusal_swaps_in_the_notice() -> None:
    for _ in range(20):
        Client(REMOTE_ADDR=HERE).post("/games/lesson/")
    refused = Client(REMOTE_ADDR=HERE).post("/games/lesson/", HTTP_HX_REQUEST="true")
    assert refused.status_code == 429
    assert 'id="notice"' in refused.content.decode()
    assert 'hx-swap-oob="true"' in refused.content.decode()


def test_a_german_visitor_reads_the_refusal_in_german() -> None:
    for _ in range(20):
        Client(REMOTE_ADDR=HERE).post("/games/lesson/")
    refused = Client(REMOTE_ADDR=HERE, HTTP_ACCEPT_LANGUAGE="de").post("/games/lesson/")
    assert refused.status_code == 429
    assert "Aus deinem Netz wurden gerade zu viele Lektionen gestartet." in refused.content.decode()
