"""Idempotency-Key replays the first answer and applies nothing twice; rate limits answer 429."""

from __future__ import annotations

import pytest

from games.models import Action
from lobby.models import IdempotencyRecord, Seek
from tests.games.live_helpers import lobby_match
from tests.seeds import deal

from .conftest import Api, body, token_for

pytestmark = pytest.mark.django_db


def test_a_repeated_key_returns_the_first_answer(alice_api: Api, alice, bob):
    match = lobby_match(alice, bob)
    version = deal(match).version
    path = f"/matches/{match.public_id}/actions"
    move = {"action": {"type": "pass"}, "version": version}
    first = alice_api.post(path, move, headers={"Idempotency-Key": "move-1"})
    second = alice_api.post(path, move, headers={"Idempotency-Key": "move-1"})
    assert first.status_code == second.status_code == 200
    assert first.content == second.content
    assert second["Idempotent-Replayed"] == "true"
    assert Action.objects.filter(match=match).count() == version + 1
    # Without the key the same request is a repeat the version check refuses.
    assert alice_api.post(path, move).status_code == 409


def test_a_refusal_is_replayed_too(alice_api: Api):
    first = alice_api.post("/seeks", {"target": 7}, headers={"Idempotency-Key": "k"})
    second = alice_api.post("/seeks", {"target": 7}, headers={"Idempotency-Key": "k"})
    assert first.status_code == second.status_code == 400
    assert first.content == second.content


def test_a_new_seek_is_posted_once(alice_api: Api, alice):
    for _ in range(3):
        response = alice_api.post("/seeks", {}, headers={"Idempotency-Key": "seek"})
        assert response.status_code == 201
    assert Seek.objects.filter(poster=alice).count() == 1


def test_a_key_reused_for_another_request_is_refused(alice_api: Api):
    alice_api.post("/seeks", {}, headers={"Idempotency-Key": "same"})
    other = alice_api.post("/seeks", {"target": 50}, headers={"Idempotency-Key": "same"})
    assert (other.status_code, body(other)["code"]) == (422, "idempotency_key_reused")


def test_keys_belong_to_their_player(alice_api: Api, bob_api: Api, alice, bob):
    alice_api.post("/seeks", {}, headers={"Idempotency-Key": "mine"})
    theirs = bob_api.post("/seeks", {}, headers={"Idempotency-Key": "mine"})
    assert theirs.status_code == 201 and body(theirs)["poster"]["username"] == "bob"
    # Two tokens of one player share the player's keys.
    second_token = Api(token_for(alice, "second"))
    again = second_token.post("/seeks", {}, headers={"Idempotency-Key": "mine"})
    assert again["Idempotent-Replayed"] == "true"


def test_an_unauthenticated_request_is_not_remembered(anonymous_api: Api):
    response = anonymous_api.post("/seeks", {}, headers={"Idempotency-Key": "x"})
    assert response.status_code == 401
    assert not IdempotencyRecord.objects.exists()


def test_a_key_too_long_is_malformed(alice_api: Api):
    response = alice_api.post("/seeks", {}, headers={"Idempotency-Key": "k" * 300})
    assert (response.status_code, body(response)["code"]) == (400, "malformed")


def test_the_rate_limit_answers_429_with_retry_after(alice_api: Api, bob_api: Api, settings):
    settings.API_RATE_LIMIT = 3
    settings.API_RATE_WINDOW = 60
    for _ in range(3):
        assert alice_api.get("/me").status_code == 200
    limited = alice_api.get("/me")
    assert limited.status_code == 429
    assert body(limited)["code"] == "rate_limited"
    assert 1 <= int(limited["Retry-After"]) <= 60
    # Per token: bob is not slowed down by alice.
    assert bob_api.get("/me").status_code == 200


def test_a_rate_limited_post_is_not_remembered(alice_api: Api, settings):
    settings.API_RATE_LIMIT = 1
    alice_api.get("/me")
    limited = alice_api.post("/seeks", {}, headers={"Idempotency-Key": "later"})
    assert limited.status_code == 429
    assert not IdempotencyRecord.objects.filter(key="later").exists()
