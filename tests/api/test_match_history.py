"""GET /api/v1/me/matches: the profile's match list, as JSON, a page at a time."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.models import Match
from tests.games.conftest import start
from tests.games.live_helpers import lobby_match

from .conftest import Api, body, token_for

pytestmark = pytest.mark.django_db


def test_it_lists_my_matches_newest_first_with_score_and_result(alice, bob, alice_api: Api):
    lost = lobby_match(alice, bob)
    Match.objects.filter(pk=lost.pk).update(created_at=timezone.now() - timedelta(days=1))
    services.resign(lost, 0, services.CURRENT)
    running = start(alice, preset="simple", target=150)
    response = alice_api.get("/me/matches")
    assert response.status_code == 200
    data = body(response)
    assert data["count"] == 2 and data["page"] == 1 and data["pages"] == 1
    assert data["next"] is None and data["previous"] is None
    first, second = data["results"]
    assert first["id"] == running.public_id
    assert first["opponent"] == "Bea" and first["opponent_username"] is None
    assert first["rules"] == "simple" and first["target"] == 150
    assert first["result"] == "running" and first["status"] == "active"
    assert first["score"] == {"mine": 0, "theirs": 0}
    assert first["url"] == f"/games/{running.public_id}/"
    assert second["id"] == lost.public_id
    assert second["opponent_username"] == "bob"
    assert second["result"] == "lost" and second["status"] == "resigned"
    # Bob's list is his own, from his side.
    bob_api = Api(token_for(bob))
    mine = body(bob_api.get("/me/matches"))["results"]
    assert [(m["id"], m["result"]) for m in mine] == [(lost.public_id, "won")]


def test_it_pages(alice, alice_api: Api):
    for _ in range(5):
        start(alice)
    page = body(alice_api.get("/me/matches", per_page=2, page=2))
    assert page["count"] == 5 and page["pages"] == 3
    assert page["page"] == 2 and page["previous"] == 1 and page["next"] == 3
    assert len(page["results"]) == 2
    assert alice_api.get("/me/matches", page=0).status_code == 400


def test_it_needs_credentials(anonymous_api: Api):
    assert anonymous_api.get("/me/matches").status_code == 401
