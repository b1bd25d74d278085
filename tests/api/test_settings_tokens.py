"""The API tokens section of Settings: make one (shown once), see it listed, revoke it."""

from __future__ import annotations

import pytest
from django.test import Client

from lobby.models import ApiToken

from .conftest import Api

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice_browser(alice) -> Client:
    client = Client()
    client.force_login(alice)
    return client


def test_it_shows_the_empty_section(alice_browser: Client):
    page = alice_browser.get("/settings/").content.decode()
    assert 'id="api-tokens"' in page
    assert "You have no API tokens." in page


def test_it_makes_a_token_and_shows_it_once(alice_browser: Client, alice):
    response = alice_browser.post("/settings/api-tokens/", {"name": "my bot"})
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    page = response.content.decode()
    token = ApiToken.objects.get(user=alice)
    secret = page.split("<code data-token>")[1].split("</code>")[0]
    assert secret.startswith(token.prefix)
    assert Api(secret).get("/me").status_code == 200
    again = alice_browser.get("/settings/").content.decode()
    assert secret not in again
    assert token.prefix in again and "my bot" in again


def test_it_wants_a_name(alice_browser: Client, alice):
    response = alice_browser.post("/settings/api-tokens/", {"name": "  "}, follow=True)
    assert not ApiToken.objects.filter(user=alice).exists()
    assert "Give the token a name" in response.content.decode()


def test_it_revokes_a_token(alice_browser: Client, alice):
    alice_browser.post("/settings/api-tokens/", {"name": "old"})
    token = ApiToken.objects.get(user=alice)
    response = alice_browser.post(f"/settings/api-tokens/{token.pk}/revoke", follow=True)
    assert "Token revoked" in response.content.decode()
    assert not ApiToken.objects.filter(pk=token.pk).exists()


def test_nobody_revokes_another_players_token(alice_browser: Client, bob):
    from lobby.accounts import tokens

    token, _secret = tokens.create(bob, "bob's")
    response = alice_browser.post(f"/settings/api-tokens/{token.pk}/revoke", follow=True)
    assert "There is no such token." in response.content.decode()
    assert ApiToken.objects.filter(pk=token.pk).exists()


def test_only_a_signed_in_player_makes_tokens():
    response = Client().post("/settings/api-tokens/", {"name": "x"})
    assert response.status_code == 302
    assert not ApiToken.objects.exists()
