"""Quick pairing through the API: POST /pool joins, GET /pool tells where you stand, DELETE
/pool leaves; both players hear "paired" on their event streams; all in the OpenAPI schema."""

from __future__ import annotations

from typing import Any

import pytest

from lobby.models import PoolEntry
from tests.api.conftest import Api, body

pytestmark = pytest.mark.django_db


def _delete(api: Api) -> Any:
    return api.client.delete("/api/v1/pool", headers=api._headers(None))


def test_it_joins_waits_and_is_paired_with_an_event(alice_api: Api, bob_api: Api) -> None:
    assert body(alice_api.get("/pool"))["status"] == "none"
    joined = alice_api.post("/pool", {"preset": "simple", "target": 50, "rated": True})
    assert joined.status_code == 201
    mine = body(joined)
    assert (mine["status"], mine["preset"], mine["target"], mine["rated"]) == (
        "waiting",
        "simple",
        50,
        True,
    )
    assert 100 <= mine["window"] < 150 and mine["match"] is None  # +-100, widening
    since = body(bob_api.get("/events"))["hello"]["last_seq"]
    paired = body(bob_api.post("/pool", {"preset": "simple", "target": 50, "rated": True}))
    assert paired["status"] == "paired" and paired["opponent"]["username"] == "alice"
    assert body(alice_api.get("/pool"))["match"] == paired["match"]
    events = body(bob_api.get("/events", since=since))["events"]
    [event] = [e for e in events if e["type"] == "paired"]
    assert event["data"]["match"] == paired["match"]
    assert event["data"]["opponent"]["username"] == "alice"
    alice_events = body(alice_api.get("/events", since=0))["events"]
    assert [e["data"]["match"] for e in alice_events if e["type"] == "paired"] == [paired["match"]]
    assert body(alice_api.get(f"/matches/{paired['match']}"))["rules"]["target"] == 50


def test_it_leaves_and_refuses_what_makes_no_sense(alice_api: Api) -> None:
    assert alice_api.post("/pool", {}).status_code == 201  # standard to 100, casual
    twice = alice_api.post("/pool", {"preset": "classic"})
    assert twice.status_code == 409
    assert "already waiting" in body(twice)["message"]
    left = _delete(alice_api)
    assert left.status_code == 200 and body(left)["status"] == "cancelled"
    again = _delete(alice_api)
    assert again.status_code == 409
    assert body(again)["message"] == "You are not waiting for a game."
    for bad in ({"preset": "blitz"}, {"target": 99}, {"target": "100"}, {"rated": "yes"}):
        assert alice_api.post("/pool", bad).status_code in (400, 422), bad
    assert PoolEntry.objects.filter(status="waiting").count() == 0


def test_the_schema_has_the_pool(alice_api: Api) -> None:
    schema = body(alice_api.get("/openapi.json"))
    assert {"get", "post", "delete"} <= set(schema["paths"]["/api/v1/pool"])
    out = schema["components"]["schemas"]["PoolOut"]["properties"]
    assert {"status", "window", "match", "opponent"} <= set(out)
    assert "allow_bots" in schema["components"]["schemas"]["PoolIn"]["properties"]
    assert "paired" in str(schema["components"]["schemas"]["Event"])
