"""Arenas through the API: the list, one arena with its standings, join (paired with a
"paired" event naming the arena), pause, leave, a private arena made and its limits, the
"arena" events at the start and the end; bad input refused with nothing changed."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from lobby.arena import service
from lobby.arena.models import Arena, ArenaPlayer
from tests.api.conftest import Api, body
from tests.lobby.arena_helpers import arena, win

pytestmark = pytest.mark.django_db


def test_list_join_standings_pause_and_leave(alice_api: Api, bob_api: Api, alice: User) -> None:
    made = arena()
    listed = body(alice_api.get("/arenas"))
    assert [a["id"] for a in listed] == [made.public_id]
    assert listed[0]["phase"] == "running" and listed[0]["me"] is None
    joined = body(alice_api.post(f"/arenas/{made.public_id}/join", {}))
    assert joined["me"]["rank"] == 1 and joined["me"]["playing"] is None
    since = body(bob_api.get("/events"))["hello"]["last_seq"]
    paired = body(bob_api.post(f"/arenas/{made.public_id}/join", {}))
    match = paired["me"]["playing"]
    assert match is not None
    [event] = [
        e for e in body(bob_api.get("/events", since=since))["events"] if e["type"] == "paired"
    ]
    assert event["data"]["match"] == match and event["data"]["arena"] == made.public_id
    win(alice)
    board = body(alice_api.get(f"/arenas/{made.public_id}/standings"))
    assert [(s["player"]["username"], s["points"], s["streak"]) for s in board] == [
        ("alice", 2, 1),
        ("bob", 0, 0),
    ]
    assert body(bob_api.post(f"/arenas/{made.public_id}/pause", {}))["me"]["paused"] is True
    assert bob_api.post(f"/arenas/{made.public_id}/pause", {}).status_code == 409
    left = body(alice_api.post(f"/arenas/{made.public_id}/leave", {}))
    assert left["me"]["paused"] is True and left["me"]["points"] == 2  # the points stay
    one = body(alice_api.get(f"/arenas/{made.public_id}"))
    assert one["standings"][0]["player"]["username"] == "alice"


def test_a_private_arena_and_its_refusals(alice_api: Api) -> None:
    made = alice_api.post(
        "/arenas", {"name": "Club", "preset": "simple", "target": 50, "minutes": 20}
    )
    assert made.status_code == 201
    arena_id = body(made)["id"]
    assert body(made)["kind"] == "private" and body(made)["phase"] == "upcoming"
    assert body(alice_api.get("/arenas")) == []  # never listed
    assert body(alice_api.get(f"/arenas/{arena_id}"))["name"] == "Club"
    for bad in (
        {"name": "", "minutes": 20},
        {"name": "Club", "minutes": 25},
        {"name": "Club", "minutes": 20, "target": 75},
        {"name": "   ", "minutes": 20},
        {"name": "Club", "minutes": 20, "starts_in": -1},
        {"name": "Club", "minutes": 20, "extra": 1},
    ):
        answer = alice_api.post("/arenas", bad)
        assert answer.status_code in (400, 422), bad
    assert Arena.objects.count() == 1
    assert alice_api.get("/arenas/nope").status_code == 404
    assert alice_api.post("/arenas/nope/join", {}).status_code == 404


def test_arena_events_at_the_start_and_the_end(alice_api: Api, bob_api: Api) -> None:
    made = arena(starts_in=1)
    alice_api.post(f"/arenas/{made.public_id}/join", {})
    Arena.objects.filter(pk=made.pk).update(starts_at=timezone.now() - timedelta(seconds=1))
    service.sweep(timezone.now())
    started = [e for e in body(alice_api.get("/events", since=0))["events"] if e["type"] == "arena"]
    assert [e["data"]["event"] for e in started] == ["started"]
    Arena.objects.filter(pk=made.pk).update(ends_at=timezone.now() - timedelta(seconds=1))
    service.sweep(timezone.now())
    events = [e for e in body(alice_api.get("/events", since=0))["events"] if e["type"] == "arena"]
    assert [(e["data"]["event"], e["data"]["rank"]) for e in events] == [
        ("started", None),
        ("finished", 1),
    ]
    assert ArenaPlayer.objects.get().points == 0


def test_an_arena_match_names_its_arena_and_other_matches_say_null(
    alice_api: Api, bob_api: Api, alice: User
) -> None:
    made = arena()
    alice_api.post(f"/arenas/{made.public_id}/join", {})
    match = body(bob_api.post(f"/arenas/{made.public_id}/join", {}))["me"]["playing"]
    assert body(alice_api.get(f"/matches/{match}"))["arena"] == made.public_id
    assert [m["arena"] for m in body(alice_api.get("/matches"))] == [made.public_id]
    win(alice)  # its start, moves and end: the match's events name the arena
    events = [e for e in body(alice_api.get("/events", since=0))["events"] if e["type"] == "match"]
    assert len(events) > 2 and {e["data"]["arena"] for e in events} == {made.public_id}
    bea = body(alice_api.post("/matches/bea", {"level": "easy"}))
    assert body(alice_api.get(f"/matches/{bea['id']}"))["arena"] is None
