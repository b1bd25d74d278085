"""What a match counts for, through the API: every match's JSON says rated, casual, aborted or
restarted and why, and every rated match's players get a `rating` event when it ends, also when
it changed no rating (an app need not wait for one that never comes)."""

from __future__ import annotations

import pytest

from games.models import Match
from lobby.ratings import results
from tests.lobby.rating_helpers import challenge_match, play, play_moves, resign

from .conftest import Api, body

pytestmark = pytest.mark.django_db


def _rating(api: Api, match: Match) -> dict:  # type: ignore[type-arg]
    return body(api.get(f"/matches/{match.public_id}"))["rating"]


def _rating_events(api: Api, match: Match) -> list[dict]:  # type: ignore[type-arg]
    """The "rating" events of ``match`` among all the reader's events (page after page)."""
    found, since = [], 0
    while True:
        events = body(api.get("/events", since=since))["events"]
        if not events:
            return found
        found += [e["data"] for e in events if e["type"] == "rating"]
        since = events[-1]["seq"]
        found = [d for d in found if d["match"] == match.public_id]


def test_a_casual_match_says_so(alice, bob, alice_api: Api):
    match = challenge_match(alice, bob, rated=False)
    assert _rating(alice_api, match) == {
        "rated": False,
        "outcome": "casual",
        "reason": "not_rated",
        "message": None,
    }
    resign(match, 1)
    assert _rating(alice_api, match)["outcome"] == "casual"
    assert _rating_events(alice_api, match) == []


def test_a_bea_match_is_casual(alice_api: Api):
    made = alice_api.post("/matches/bea", {"level": "easy"})
    assert body(made)["rating"]["outcome"] == "casual"
    assert body(made)["rating"]["reason"] == "not_rated"


def test_a_rated_match_is_pending_then_rated_and_both_hear_it(alice, bob, alice_api, bob_api):
    match = challenge_match(alice, bob)
    assert _rating(alice_api, match) == {
        "rated": True,
        "outcome": "pending",
        "reason": None,
        "message": None,
    }
    play(match)
    resign(match, 1)
    assert _rating(bob_api, match)["outcome"] == "rated"
    [event] = _rating_events(bob_api, match)
    assert event["outcome"] == "rated" and event["reason"] is None and event["change"] < 0


def test_a_match_in_progress_is_asked_what_it_counts_for_once(alice, bob, alice_api, bob_api):
    """Decided when the match starts, it changes only with the end: the reads and moves in
    between do not ask the database again (every answer about a match says it)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    match = challenge_match(alice, bob)
    assert _rating(alice_api, match)["outcome"] == "pending"
    with CaptureQueriesContext(connection) as queries:
        assert _rating(bob_api, match)["outcome"] == "pending"
        play_moves(match, 1)
    assert not [q for q in queries if "lobby_ratedmatch" in q["sql"]]
    resign(match, 1)
    assert _rating(bob_api, match)["outcome"] == "aborted"


def test_a_match_ended_early_says_aborted_and_why(alice, bob, alice_api, bob_api):
    match = challenge_match(alice, bob)
    play_moves(match, 1)
    resign(match, 1)
    shown = _rating(alice_api, match)
    assert (shown["rated"], shown["outcome"], shown["reason"]) == (True, "aborted", "ended_early")
    assert shown["message"] == "Aborted before the first hand was over: not rated."
    # Listed the same way.
    listed = body(alice_api.get("/matches"))
    assert next(m for m in listed if m["id"] == match.public_id)["rating"] == shown
    for api in (alice_api, bob_api):
        [event] = _rating_events(api, match)
        assert (event["outcome"], event["reason"], event["change"]) == ("aborted", "ended_early", 0)
        assert event["rating"] == 1500 and event["provisional"] is True


def test_the_fourth_rated_match_of_a_day_says_casual_by_the_daily_cap(alice, bob, alice_api):
    for _ in range(results.DAILY_CAP):
        match = challenge_match(alice, bob)
        play(match)
        resign(match, 1)
    fourth = challenge_match(alice, bob)
    assert _rating(alice_api, fourth)["outcome"] == "pending"
    play(fourth)
    resign(fourth, 1)
    shown = _rating(alice_api, fourth)
    assert (shown["rated"], shown["outcome"], shown["reason"]) == (True, "casual", "daily_cap")
    assert "3 rated matches against each other in the last 24 hours" in shown["message"]
    [event] = _rating_events(alice_api, fourth)
    assert (event["outcome"], event["reason"], event["change"]) == ("casual", "daily_cap", 0)
    assert event["rating"] > 1500


def test_the_message_is_in_the_readers_language(alice, bob, alice_api):
    match = challenge_match(alice, bob)
    resign(match, 1)
    shown = body(alice_api.get(f"/matches/{match.public_id}", headers={"Accept-Language": "de"}))
    assert shown["rating"]["outcome"] == "aborted"
    assert "nicht gewertet" in shown["rating"]["message"].lower()


def test_the_schema_describes_it(alice_api: Api):
    components = body(alice_api.get("/openapi.json"))["components"]["schemas"]
    rating = components["MatchRating"]["properties"]
    assert rating["outcome"]["enum"] == ["casual", "pending", "rated", "aborted", "restarted"]
    assert "daily_cap" in str(rating["reason"])
