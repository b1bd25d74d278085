"""POST /games/new/: a match against Bea; replacing a running one needs a confirmation."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from django.test import Client

from games import services
from games.engine import player_view
from games.models import Match
from games.records.stats import player_stats
from games.state_cache import load_state

from .conftest import start, url

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db

CHOICE = {"preset": "classic", "target": "250", "level": "hard"}


def test_it_starts_a_match_and_opens_the_table(alice: User, alice_client: Client):
    response = alice_client.post("/games/new/", CHOICE)
    match = Match.objects.get()
    assert response.status_code == 302
    assert response["Location"] == url(match, "table")
    view = player_view(load_state(match), 0)
    assert view["rules"]["name"] == "classic" and view["rules"]["target"] == 250
    assert match.seats.get(number=1).bea_level == "hard"


@pytest.mark.parametrize(
    "bad",
    [{"target": "75"}, {"preset": "poker"}, {"level": "godlike"}, {"target": "x"}],
)
def test_it_refuses_a_bad_choice(alice: User, alice_client: Client, bad: dict[str, str]):
    response = alice_client.post("/games/new/", {**CHOICE, **bad})
    assert response.status_code == 400
    assert "Select a valid choice." in response.content.decode()
    assert not Match.objects.exists()


def test_it_asks_before_abandoning_a_running_match(alice: User, alice_client: Client):
    running = start(alice)
    response = alice_client.post("/games/new/", CHOICE)
    assert response.status_code == 200
    page = response.content.decode()
    assert "Start a new match?" in page
    assert "that match is abandoned and counts as a loss" in page
    assert url(running, "table") in page  # "No, resume my match"
    assert 'name="confirm" value="1"' in page
    assert Match.objects.count() == 1
    running.refresh_from_db()
    assert running.is_active


def test_it_abandons_the_running_match_once_confirmed(alice: User, alice_client: Client):
    running = start(alice)
    response = alice_client.post("/games/new/", {**CHOICE, "confirm": "1"})
    assert response.status_code == 302
    running.refresh_from_db()
    assert running.status == Match.Status.ABANDONED
    assert running.winner_seat == 1
    new = Match.objects.exclude(pk=running.pk).get()
    assert new.is_active and new.previous == running
    assert player_stats(alice)["matches_played"] == 1


def test_it_starts_a_new_match_after_a_finished_one(alice: User, alice_client: Client):
    old = start(alice)
    services.resign(old, 0, old.version)
    response = alice_client.post("/games/new/", {**CHOICE, "previous": old.public_id})
    assert response.status_code == 302
    assert Match.objects.exclude(pk=old.pk).get().previous == old


def test_it_refuses_get(alice_client: Client):
    assert alice_client.get("/games/new/").status_code == 405
