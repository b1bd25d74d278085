"""Settings says what a new password ends and what it does not (API tokens), and offers to
sign out everywhere else and to revoke all tokens (issue 28)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from lobby.accounts import tokens
from tests.games.live_helpers import signed_in

pytestmark = pytest.mark.django_db


def test_it_says_tokens_survive_and_offers_to_revoke_them_all(alice: User) -> None:
    tokens.create(alice, "bot")
    page = signed_in(alice).get("/settings/").content.decode()
    assert "A new password signs you out in every other browser" in page
    assert "Your API tokens keep working" in page
    assert 'action="/settings/sign-out-elsewhere"' in page
    assert 'autocomplete="current-password"' in page
    assert "Tokens keep working when you change your password or sign out everywhere else." in page
    assert 'action="/settings/api-tokens/revoke-all"' in page and "Revoke all tokens" in page


def test_without_tokens_there_is_nothing_to_revoke(alice: User) -> None:
    page = signed_in(alice).get("/settings/").content.decode()
    assert "Revoke all tokens" not in page
    assert "Sign out everywhere else" in page


def test_it_says_so_in_german(alice: User) -> None:
    tokens.create(alice, "bot")
    browser = signed_in(alice)
    browser.cookies["django_language"] = "de"
    page = browser.get("/settings/").content.decode()
    assert "Ein neues Passwort meldet dich in allen anderen Browsern ab" in page
    assert "Überall sonst abmelden" in page
    assert "Alle Tokens widerrufen" in page


def test_revoking_all_without_tokens_says_so(alice: User) -> None:
    browser = signed_in(alice)
    browser.post("/settings/api-tokens/revoke-all")
    assert "You have no API tokens." in browser.get("/settings/").content.decode()


def test_the_pages_need_a_signed_in_post(alice: User, client) -> None:  # type: ignore[no-untyped-def]
    assert client.post("/settings/sign-out-elsewhere", {"password": "x"}).status_code == 302
    assert signed_in(alice).get("/settings/sign-out-elsewhere").status_code == 405
    assert signed_in(alice).get("/settings/api-tokens/revoke-all").status_code == 405
