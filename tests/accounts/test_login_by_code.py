"""Finding 10: a name locked against password guessing (django-axes) still lets its owner in,
by a code mailed to the account's verified address; passwords stay refused."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from .conftest import Clock, give_address, mails_to

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _lower_bar(settings) -> None:  # type: ignore[no-untyped-def]
    # Fewer failures to lock a name everywhere than the shipped 50: each one hashes a password.
    settings.LOGIN_NAME_FAILURE_LIMIT = 10


def lock_out(name: str = "alice") -> None:
    """Guessing spread over many addresses, up to LOGIN_NAME_FAILURE_LIMIT: the name is locked
    everywhere."""
    for n in range(10):
        Client(REMOTE_ADDR=f"203.0.113.{n}").post(
            "/accounts/login/", {"login": name, "password": "wrong"}
        )


def password_refused(client: Client, password: str) -> bool:
    response = client.post("/accounts/login/", {"login": "alice", "password": password})
    return response.status_code == 429 and "_auth_user_id" not in client.session


def code_in(body: str) -> str:
    [code] = re.findall(r"^\s*([A-Z0-9]{4}-[A-Z0-9]{4})\s*$", body, re.MULTILINE)
    return code


def test_the_lockout_page_offers_a_code_by_mail(alice: User) -> None:
    lock_out()
    response = Client(REMOTE_ADDR="198.51.100.7").post(
        "/accounts/login/", {"login": "alice", "password": "anything"}
    )
    assert response.status_code == 429
    page = response.content.decode()
    assert 'href="/accounts/login/code/"' in page
    assert "Sign in with a code by e-mail" in page


def test_the_owner_of_a_locked_name_gets_in_with_the_mailed_code(
    alice: User, password: str
) -> None:
    give_address(alice, "alice@example.com", verified=True)
    lock_out()
    owner = Client(REMOTE_ADDR="198.51.100.7")
    assert password_refused(owner, password)
    response = owner.post("/accounts/login/code/", {"email": "alice@example.com"})
    assert response.status_code == 302
    [message] = mails_to("alice@example.com")
    assert message.subject == "Gin Rummy: Your sign-in code"
    code = code_in(message.body)
    response = owner.post("/accounts/login/code/confirm/", {"code": code})
    assert response.status_code == 302
    assert owner.session["_auth_user_id"] == str(alice.pk)
    # The lock still holds against passwords, the right one included, from anywhere.
    assert password_refused(Client(REMOTE_ADDR="198.51.100.8"), password)
    assert password_refused(Client(REMOTE_ADDR="203.0.113.77"), password)


def test_wrong_codes_get_nobody_in(alice: User) -> None:
    give_address(alice, "alice@example.com", verified=True)
    guesser = Client()
    guesser.post("/accounts/login/code/", {"email": "alice@example.com"})
    for _ in range(2):
        response = guesser.post("/accounts/login/code/confirm/", {"code": "AAAAAA"})
        assert response.status_code == 200
    # The third wrong code ends it: even the right one is no use now.
    guesser.post("/accounts/login/code/confirm/", {"code": "AAAAAA"})
    code = code_in(mails_to("alice@example.com")[0].body)
    guesser.post("/accounts/login/code/confirm/", {"code": code})
    assert "_auth_user_id" not in guesser.session


@pytest.mark.parametrize("case", ["unverified", "unknown"])
def test_no_code_goes_where_no_account_verified_the_address(
    client: Client, alice: User, case: str
) -> None:
    give_address(alice, "alice@example.com", verified=False)
    address = "alice@example.com" if case == "unverified" else "nobody@example.com"
    response = client.post("/accounts/login/code/", {"email": address})
    # The same next page as for a verified address: it tells nobody which addresses count.
    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/code/confirm/"
    assert mails_to(address) == []
    assert "_auth_user_id" not in client.session


def test_codes_to_one_address_are_limited(alice: User, allauth_clock: Clock) -> None:
    give_address(alice, "alice@example.com", verified=True)
    for n in range(3):
        Client(REMOTE_ADDR=f"203.0.113.{n}").post(
            "/accounts/login/code/", {"email": "alice@example.com"}
        )
    allauth_clock.advance(59 * 60)  # three an hour
    response = Client(REMOTE_ADDR="198.51.100.1").post(
        "/accounts/login/code/", {"email": "alice@example.com"}
    )
    assert response.status_code == 200
    assert "Too many failed login attempts" in response.content.decode()
    assert len(mails_to("alice@example.com")) == 3


def test_it_says_so_in_german(client: Client, alice: User) -> None:
    give_address(alice, "alice@example.com", verified=True)
    lock_out()
    german = {"accept-language": "de"}
    response = client.post("/accounts/login/", {"login": "alice", "password": "x"}, headers=german)
    assert "Mit einem Code per E-Mail anmelden" in response.content.decode()
    client.post("/accounts/login/code/", {"email": "alice@example.com"}, headers=german)
    [message] = mails_to("alice@example.com")
    assert message.subject == "Gin Rommé: Dein Anmeldecode"
    assert "ohne Passwort bei Gin Rommé anzumelden" in message.body
