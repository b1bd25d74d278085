"""A correspondence hand that waits for a player's seed is on that player's "your turn" list
(`waiting_for: "seed"`), as the match's own `your_turn` says, until they send it; the lists
are pushed again when it begins to wait and as each seed comes."""

from __future__ import annotations

import pytest

from games.models import Match
from lobby import services as lobby_services
from lobby.webpush import notifications
from tests.lobby.lobby_helpers import online

from .conftest import Api, body

pytestmark = pytest.mark.django_db


@pytest.fixture
def waiting(alice, bob) -> Match:
    """alice challenged bob to a 3-day correspondence match; its first hand waits for seeds."""
    online(alice)
    made = lobby_services.challenge(alice, bob, "standard", 100, rated=False, days_per_move=3)
    return lobby_services.accept_challenge(made, bob)


def _seed(api: Api, match: Match) -> None:
    version = body(api.get(f"/matches/{match.public_id}"))["version"]
    sent = api.post(
        f"/matches/{match.public_id}/actions",
        {"action": {"type": "seed", "seed": "a-fresh-seed-of-mine-123"}, "version": version},
    )
    assert sent.status_code == 200, sent.content


def test_a_hand_waiting_for_my_seed_is_on_my_list(waiting, alice_api: Api, bob_api: Api):
    match = body(alice_api.get(f"/matches/{waiting.public_id}"))
    assert match["your_turn"] is True
    [row] = body(alice_api.get("/me/your-turn"))
    assert (row["id"], row["waiting_for"]) == (waiting.public_id, "seed")
    waiting.refresh_from_db()
    assert row["deadline"] is not None and row["seconds_left"] <= 10
    assert row["time_left"] == "the deal waits for you"
    _seed(alice_api, waiting)
    assert body(alice_api.get("/me/your-turn")) == []
    [bobs] = body(bob_api.get("/me/your-turn"))
    assert bobs["waiting_for"] == "seed"
    _seed(bob_api, waiting)
    # Dealt: the player to move has it on their list as a move, the other has nothing.
    lists = {
        name: body(api.get("/me/your-turn"))
        for name, api in (("alice", alice_api), ("bob", bob_api))
    }
    moving = [name for name, rows in lists.items() if rows]
    assert len(moving) == 1
    assert lists[moving[0]][0]["waiting_for"] == "move"


def test_each_seed_pushes_the_lists_again(waiting, alice, alice_api: Api, monkeypatch):
    pushed: list[tuple[set[int], list[str]]] = []
    monkeypatch.setattr(
        notifications, "publish_to", lambda users, regions: pushed.append((set(users), regions))
    )
    _seed(alice_api, waiting)
    assert any(alice.pk in users and regions == ["turns"] for users, regions in pushed)


def test_the_schema_says_what_is_waited_for(alice_api: Api):
    components = body(alice_api.get("/openapi.json"))["components"]["schemas"]
    assert components["TurnRow"]["properties"]["waiting_for"]["enum"] == ["move", "seed"]
