"""Spam and limits: challenges are limited per sender and per target, the API's rate limit
counts all of a player's tokens and their session together, and failed authentication is
limited per client address."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from ginsite.asgi import application
from lobby.models import PlayerEvent
from tests.lobby.lobby_helpers import HTMX, online
from tests.sockets import Socket

from .conftest import Api, body, token_for

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _challenge_limits(settings) -> None:  # type: ignore[no-untyped-def]
    settings.CHALLENGE_LIMIT_PER_SENDER = 5
    settings.CHALLENGE_LIMIT_PER_TARGET = 10
    settings.CHALLENGE_LIMIT_WINDOW = 60


def _cycle(api: Api, to: str) -> int:
    """Challenge ``to`` and cancel at once; the challenge's status."""
    made = api.post("/challenges", {"to": to})
    if made.status_code == 201:
        assert api.post(f"/challenges/{body(made)['id']}/cancel").status_code == 200
    return made.status_code


@pytest.mark.django_db(transaction=True)  # the events are recorded after each commit
def test_challenge_and_cancel_cycles_stop_after_five_a_minute(
    alice_api: Api, alice: User, bob: User
) -> None:
    online(bob)
    statuses = [_cycle(alice_api, "bob") for _ in range(20)]
    assert statuses == [201] * 5 + [429] * 15
    limited = alice_api.post("/challenges", {"to": "bob"})
    assert body(limited)["code"] == "rate_limited"
    assert "too many challenges" in body(limited)["message"]
    assert 1 <= int(limited["Retry-After"]) <= 60
    # The victim heard of five challenges and five cancellations, not of a hundred.
    assert PlayerEvent.objects.filter(user=bob, kind="challenge").count() == 10


def test_a_target_takes_at_most_ten_challenges_a_minute_from_everyone(
    django_user_model: type[User], bob: User
) -> None:
    online(bob)
    senders = [Api(token_for(django_user_model.objects.create_user(f"s{i}"))) for i in range(4)]
    statuses = [_cycle(api, "bob") for api in senders for _ in range(3)]
    assert statuses.count(201) == 10 and statuses[-2:] == [429, 429]
    limited = senders[-1].post("/challenges", {"to": "bob"})
    assert (limited.status_code, body(limited)["code"]) == (429, "rate_limited")
    assert "bob has had too many challenges" in body(limited)["message"]
    assert limited["Retry-After"]


def test_the_html_lobby_says_so_too(client: Client, alice: User, bob: User) -> None:
    online(alice, bob)
    client.force_login(alice)
    for _ in range(5):
        client.post("/lobby/challenges/", {"to": "bob", "preset": "standard", "target": "100"})
        challenge = alice.challenges_sent.filter(status="open").get()
        client.post(f"/lobby/challenges/{challenge.pk}/cancel")
    response = client.post(
        "/lobby/challenges/", {"to": "bob", "preset": "standard", "target": "100"}, **HTMX
    )
    assert response.status_code == 429 and response["Retry-After"]
    assert "You have sent too many challenges. Try again in" in response.content.decode()
    # htmx swaps a 429 answer in (its message), as it does a 409.
    assert '"(400|403|404|409|429)"' in client.get("/lobby/").content.decode()


# --- The API's rate limit is per player -----------------------------------------------------------


def test_all_tokens_and_the_session_of_one_player_share_one_limit(
    alice: User, bob: User, settings
) -> None:  # type: ignore[no-untyped-def]
    settings.API_RATE_LIMIT = 4
    apis = [Api(token_for(alice, f"bot {i}")) for i in range(3)]
    session = Client()
    session.force_login(alice)
    assert [api.get("/me").status_code for api in apis] == [200, 200, 200]
    assert session.get("/api/v1/me").status_code == 200
    assert [api.get("/me").status_code for api in apis] == [429, 429, 429]
    assert session.get("/api/v1/me").status_code == 429
    # Another player is not slowed down by alice.
    assert Api(token_for(bob)).get("/me").status_code == 200


# --- Failed authentication, per client address -------------------------------------------------


def test_bad_tokens_are_limited_per_address(alice: User, settings) -> None:  # type: ignore[no-untyped-def]
    settings.API_AUTH_FAILURE_LIMIT = 5
    attacker = Client(REMOTE_ADDR="203.0.113.7")
    bad = Api("gin_guess", attacker)
    assert [bad.get("/me").status_code for _ in range(5)] == [401] * 5
    limited = bad.get("/me")
    assert (limited.status_code, body(limited)["code"]) == (429, "rate_limited")
    assert 1 <= int(limited["Retry-After"]) <= 60
    # Any token from that address waits too (telling a good one from a guess costs a lookup).
    assert Api(token_for(alice), attacker).get("/me").status_code == 429
    # Other addresses are not held up.
    assert Api(token_for(alice), Client(REMOTE_ADDR="198.51.100.2")).get("/me").status_code == 200
    assert Api("gin_guess", Client(REMOTE_ADDR="198.51.100.2")).get("/me").status_code == 401


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_bad_tokens_on_the_event_socket_count_too(settings) -> None:  # type: ignore[no-untyped-def]
    settings.API_AUTH_FAILURE_LIMIT = 2

    async def close_code(client: tuple[str, int]) -> int:
        socket = Socket(application, "/ws/events/?token=gin_guess")
        socket.scope["client"] = client
        connected, _ = await socket.connect()
        assert connected
        closed = await socket.receive_output()
        return int(closed["code"])

    attacker = ("203.0.113.7", 40000)
    assert [await close_code(attacker) for _ in range(3)] == [4401, 4401, 4429]
    assert await close_code(("198.51.100.2", 40000)) == 4401
