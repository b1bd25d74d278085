"""The completion figure in the API: /players/online, /players/{username} and /me."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Match
from tests.lobby.lobby_helpers import online
from tests.lobby.test_completion import _eight_with_two_walkouts, finished

from .conftest import Api, body

pytestmark = pytest.mark.django_db


def test_the_players_carry_their_completion(alice_api: Api, alice, bob, carol):
    _eight_with_two_walkouts(bob, carol)
    online(bob, carol)
    players = {p["username"]: p for p in body(alice_api.get("/players/online"))}
    assert players["bob"]["completion"] == 75
    assert players["carol"]["completion"] == 75
    assert players["alice"]["completion"] is None
    assert body(alice_api.get("/players/bob"))["completion"] == 75
    assert body(alice_api.get("/players/alice"))["completion"] is None
    assert body(alice_api.get("/me"))["completion"] is None


def test_only_the_last_50_count_and_resigning_is_fine(alice_api: Api, alice, bob):
    finished(alice, bob, Match.Status.TIMED_OUT, won=False, days_ago=9)
    for _ in range(50):
        finished(alice, bob, Match.Status.RESIGNED, won=False, days_ago=1)
    assert body(alice_api.get("/me"))["completion"] == 100


def test_the_online_list_reads_it_in_one_query(alice_api: Api, alice, django_user_model):
    def queries_for(count: int) -> int:
        players = [django_user_model.objects.create_user(f"q{count}x{i}") for i in range(count)]
        for player in players:
            finished(player, alice, Match.Status.ABANDONED, won=False)
        online(*players)
        with CaptureQueriesContext(connection) as queries:
            listed = body(alice_api.get("/players/online"))
        assert [p["completion"] for p in listed if p["username"] != "alice"] == [0] * count
        for player in players:
            player.presences.all().delete()
        return len(queries)

    # The first request also marks alice online and her token used: not part of the count.
    body(alice_api.get("/players/online"))
    assert queries_for(2) == queries_for(6)


def test_the_schema_documents_it():
    from ginsite.api import api

    schemas = api.get_openapi_schema()["components"]["schemas"]
    for name in ("Player", "PlayerProfile", "Me"):
        field = schemas[name]["properties"]["completion"]
        assert "abandon" in field["description"]
