"""One match against Bea running at a time holds under concurrency (issue 39, finding 5): 12
starts at once used to leave one account with 8 running, since each checked for a running
match before any of them had made one. Now the starts of one player (their account's row
locked) or one browser (a lock on its guest key) take turns, on SQLite and PostgreSQL alike
(CI's second pass runs these on PostgreSQL). Threads against the real database, through the
doors a client uses."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest
from django.db import connections
from django.test import Client

from games.models import Match, Seat
from lobby.accounts import tokens

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.http import HttpResponse

pytestmark = pytest.mark.django_db(transaction=True)

AT_ONCE = 12
CHOICE = {"preset": "standard", "target": "100", "level": "easy"}


def _at_once(start: Callable[[], HttpResponse]) -> list[int]:
    """``start`` from AT_ONCE threads released together; each one's status (or its error)."""
    barrier = threading.Barrier(AT_ONCE)
    answers: list[int | str] = ["not run"] * AT_ONCE

    def run(i: int) -> None:
        try:
            barrier.wait(timeout=30)
            answers[i] = start().status_code
        except Exception as exc:  # reported by the assertions
            answers[i] = repr(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(AT_ONCE)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return sorted(answers, key=str)  # type: ignore[arg-type]


def _running_against_bea(**seat: object) -> int:
    return Match.objects.filter(
        kind=Match.Kind.BEA,
        status=Match.Status.ACTIVE,
        **{f"seats__{k}": v for k, v in seat.items()},
    ).count()


def _api_start(user: User, replace: bool) -> Callable[[], HttpResponse]:
    secret = tokens.create(user, "t")[1]
    body = json.dumps({"level": "easy", "replace": replace})

    def start() -> HttpResponse:
        return Client().post(
            "/api/v1/matches/bea",
            body,
            content_type="application/json",
            headers={"Authorization": f"Bearer {secret}"},
        )

    return start


def test_twelve_api_starts_at_once_make_one_match(alice: User) -> None:
    answers = _at_once(_api_start(alice, replace=False))
    assert answers == [201] + [409] * (AT_ONCE - 1)
    assert _running_against_bea(user=alice) == 1


def test_twelve_starts_that_replace_leave_one_running(alice: User) -> None:
    answers = _at_once(_api_start(alice, replace=True))
    assert answers == [201] * AT_ONCE
    # Each one abandoned the one before it: twelve made, one running.
    assert Match.objects.filter(kind=Match.Kind.BEA, seats__user=alice).count() == AT_ONCE
    assert _running_against_bea(user=alice) == 1


def test_twelve_page_starts_of_a_signed_in_player_make_one_match(alice: User) -> None:
    browser = Client()
    browser.force_login(alice)
    _at_once(lambda: browser.post("/games/new/", CHOICE))
    assert _running_against_bea(user=alice) == 1


def test_twelve_starts_from_one_guest_browser_make_one_match() -> None:
    browser = Client()
    assert browser.post("/games/new/", CHOICE).status_code == 302  # the browser gets its key
    answers = _at_once(lambda: browser.post("/games/new/", {**CHOICE, "confirm": "1"}))
    assert answers == [302] * AT_ONCE
    # Every match is this browser's (one guest key): thirteen made, one running.
    assert Match.objects.filter(seats__kind=Seat.Kind.GUEST).count() == AT_ONCE + 1
    assert _running_against_bea(kind=Seat.Kind.GUEST) == 1


def test_twelve_lesson_starts_from_one_browser_leave_one_lesson() -> None:
    browser = Client()
    assert browser.post("/games/lesson/").status_code == 302
    answers = _at_once(lambda: browser.post("/games/lesson/"))
    assert answers == [302] * AT_ONCE
    assert Match.objects.filter(kind=Match.Kind.LESSON).count() == 1
