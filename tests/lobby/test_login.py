from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

pytestmark = pytest.mark.django_db

TOO_MANY = "Too many failed login attempts. Try again later."


def test_it_shows_the_form_in_the_site_layout(client: Client) -> None:
    page = client.get("/accounts/login/").content.decode()
    assert 'name="login"' in page and 'name="password"' in page
    assert 'class="site-header"' in page


def test_it_signs_in_and_shows_the_display_name(client: Client, alice: User, password: str) -> None:
    alice.profile.display_name = "Queen of Spades"
    alice.profile.save()
    response = client.post("/accounts/login/", {"login": "alice", "password": password})
    assert response.status_code == 302
    page = client.get("/").content.decode()
    assert "Queen of Spades" in page
    assert 'href="/players/alice/"' in page
    assert 'href="/settings/"' in page


def test_it_refuses_a_wrong_password(client: Client, alice: User) -> None:
    response = client.post("/accounts/login/", {"login": "alice", "password": "nope"})
    assert response.status_code == 200
    assert "_auth_user_id" not in client.session


def test_it_throttles_after_five_failures(client: Client, alice: User, password: str) -> None:
    for _ in range(5):
        response = client.post("/accounts/login/", {"login": "alice", "password": "wrong"})
        assert TOO_MANY not in response.content.decode()
    # Even the right password is refused now: guessing has stopped paying off.
    response = client.post("/accounts/login/", {"login": "alice", "password": password})
    assert response.status_code == 200
    assert TOO_MANY in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_it_throttles_per_username(client: Client, alice: User, bob: User, password: str) -> None:
    for _ in range(5):
        client.post("/accounts/login/", {"login": "alice", "password": "wrong"})
    response = client.post("/accounts/login/", {"login": "bob", "password": password})
    assert response.status_code == 302


def test_it_applies_the_preferred_language_at_sign_in(
    client: Client, alice: User, password: str
) -> None:
    alice.profile.language = "de"
    alice.profile.save()
    response = client.post("/accounts/login/", {"login": "alice", "password": password})
    assert response.status_code == 302
    assert response.cookies["django_language"].value == "de"
