"""A block hides each side from the other, by one rule for the HTML lobby and the API: neither
sees the other in the players list or among the seeks, and a challenge to someone who blocked
you is refused exactly as one to a player who is not in the lobby, so it never reveals the
block."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User
from django.test import Client

from lobby import services
from lobby.accounts import tokens
from lobby.models import Challenge
from tests.lobby.lobby_helpers import HTMX, online

pytestmark = pytest.mark.django_db


@pytest.fixture
def blocked(alice: User, bob: User, carol: User) -> None:
    """Bob blocked Alice; all three are in the lobby, and each has posted a seek."""
    online(alice, bob, carol)
    services.block(bob, alice)
    for user in (alice, bob, carol):
        services.post_seek(user, "standard", 100)


def _lobby(user: User) -> str:
    client = Client()
    client.force_login(user)
    return client.get("/lobby/").content.decode()


def _api(user: User, path: str) -> list[dict]:
    secret = tokens.create(user, "t")[1]
    response = Client().get(f"/api/v1{path}", headers={"Authorization": f"Bearer {secret}"})
    assert response.status_code == 200
    return json.loads(response.content)


@pytest.mark.parametrize(("viewer", "other"), [("alice", "bob"), ("bob", "alice")])
def test_neither_side_sees_the_other_in_the_html_lobby(
    blocked: None, viewer: str, other: str
) -> None:
    html = _lobby(User.objects.get(username=viewer))
    assert f'data-player="{other}"' not in html
    assert 'data-player="carol"' in html
    assert f"<strong>{other}</strong> is looking for a game" not in html
    assert "<strong>carol</strong> is looking for a game" in html


@pytest.mark.parametrize(("viewer", "other"), [("alice", "bob"), ("bob", "alice")])
def test_neither_side_sees_the_other_through_the_api(
    blocked: None, viewer: str, other: str
) -> None:
    user = User.objects.get(username=viewer)
    online_names = {p["username"] for p in _api(user, "/players/online")}
    assert other not in online_names and "carol" in online_names
    posters = {s["poster"]["username"] for s in _api(user, "/seeks")}
    assert other not in posters and "carol" in posters
    profile = _api(user, f"/players/{other}")
    assert profile["online"] is False  # type: ignore[call-overload]


def _challenge_by_form(user: User, to: str) -> tuple[int, str]:
    client = Client()
    client.force_login(user)
    response = client.post(
        "/lobby/challenges/", {"to": to, "preset": "standard", "target": "100"}, **HTMX
    )
    return response.status_code, response.content.decode()


def _challenge_by_api(user: User, to: str) -> tuple[int, dict]:
    secret = tokens.create(user, "c")[1]
    response = Client().post(
        "/api/v1/challenges",
        json.dumps({"to": to}),
        content_type="application/json",
        headers={"Authorization": f"Bearer {secret}"},
    )
    return response.status_code, json.loads(response.content)


def test_a_challenge_to_someone_who_blocked_you_reads_like_one_to_an_absent_player(
    blocked: None, alice: User, bob: User, django_user_model: type[User]
) -> None:
    # Dora is not in the lobby: what alice hears of her is what she must hear of bob.
    django_user_model.objects.create_user(username="dora")
    status, page = _challenge_by_form(alice, "bob")
    absent_status, absent_page = _challenge_by_form(alice, "dora")
    assert (status, absent_status) == (409, 409)
    assert "bob is not in the lobby right now." in page
    assert "dora is not in the lobby right now." in absent_page
    assert "not taking challenges" not in page
    api_status, answer = _challenge_by_api(alice, "bob")
    absent_api_status, absent_answer = _challenge_by_api(alice, "dora")
    assert (
        (api_status, answer["code"])
        == (absent_api_status, absent_answer["code"])
        == (
            409,
            "conflict",
        )
    )
    assert answer["message"] == absent_answer["message"].replace("dora", "bob")
    assert not Challenge.objects.exists()


def test_a_seek_of_someone_who_blocked_you_reads_like_a_seek_that_is_gone(
    blocked: None, alice: User, bob: User
) -> None:
    seek = bob.seeks.get()
    client = Client()
    client.force_login(alice)
    response = client.post(f"/lobby/seeks/{seek.pk}/accept", **HTMX)
    assert response.status_code == 409
    assert "that seek is no longer open." in response.content.decode()
