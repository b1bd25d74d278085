"""Sign-up asks for an e-mail address and sends a link that verifies it; the account plays
casual matches at once, and nobody learns through sign-up which addresses have accounts."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth.models import User
from django.core import mail
from django.core.cache import cache
from django.test import Client

from lobby.accounts.emails import has_verified_email

from .conftest import give_address, link_in, mails_to

pytestmark = pytest.mark.django_db

PASSPHRASE = "a long pass phrase"


def signup(client: Client, username: str, email: str, **headers: str):  # type: ignore[no-untyped-def]
    return client.post(
        "/accounts/signup/",
        {
            "username": username,
            "display_name": username.title(),
            "email": email,
            "password1": PASSPHRASE,
            "password2": PASSPHRASE,
        },
        headers=headers,
    )


def test_it_requires_an_address(client: Client) -> None:
    response = signup(client, "dora", "")
    assert response.status_code == 200
    assert response.context["form"].errors["email"] == ["This field is required."]
    assert not User.objects.filter(username="dora").exists()
    assert mail.outbox == []


def test_it_refuses_what_is_not_an_address(client: Client) -> None:
    response = signup(client, "dora", "dora at example")
    assert response.context["form"].errors["email"] == ["Enter a valid email address."]
    assert not User.objects.filter(username="dora").exists()


def test_it_sends_a_link_that_verifies_the_address(client: Client) -> None:
    response = signup(client, "dora", "Dora@Example.com")
    assert response.status_code == 302
    dora = User.objects.get(username="dora")
    assert not has_verified_email(dora.pk)
    [message] = mails_to("dora@example.com")
    assert message.subject == "Gin Rummy: Confirm your e-mail address"
    # Plain text only, naming the site and the account, and nothing secret but the link.
    assert not getattr(message, "alternatives", [])
    assert "signed up for Gin Rummy as dora" in message.body
    assert PASSPHRASE not in message.body
    path = link_in(message)
    # Opening the link shows a button; a mail scanner that follows links confirms nothing.
    page = client.get(path)
    assert "Confirm your e-mail address" in page.content.decode()
    assert not has_verified_email(dora.pk)
    assert client.post(path).status_code == 302
    assert has_verified_email(dora.pk)


def test_an_unverified_account_plays_casual_matches_at_once(
    client: Client, quick_bea: None
) -> None:
    signup(client, "dora", "dora@example.com")
    assert client.get("/lobby/").status_code == 200
    response = client.post(
        "/games/new/", {"preset": "standard", "target": "100", "level": "medium"}
    )
    assert response.status_code == 302
    assert response["Location"].startswith("/games/")


def test_it_says_the_same_whether_or_not_the_address_has_an_account(
    client: Client, alice: User
) -> None:
    give_address(alice, "alice@example.com", verified=True)
    taken = signup(Client(), "mallory", "alice@example.com")
    free = signup(Client(), "dora", "dora@example.com")
    # Both sign-ups succeed and look alike: sign-up tells nobody whose address it is.
    assert taken.status_code == free.status_code == 302
    assert taken["Location"] == free["Location"]
    mallory = User.objects.get(username="mallory")
    # But mallory never gets the address: it stays alice's, and only hers verified.
    assert not has_verified_email(mallory.pk)
    assert EmailAddress.objects.get(email="alice@example.com", verified=True).user == alice


def test_an_address_verified_elsewhere_cannot_be_verified_again(
    client: Client, alice: User
) -> None:
    give_address(alice, "alice@example.com", verified=True)
    signup(client, "mallory", "alice@example.com")
    # The link went to alice's mailbox; even if mallory had it, it would confirm nothing.
    [message] = mails_to("alice@example.com")
    page = client.get(link_in(message)).content.decode()
    assert "confirmed by another account already" in page
    client.post(link_in(message))
    mallory = User.objects.get(username="mallory")
    assert not has_verified_email(mallory.pk)


def test_a_squatter_cannot_keep_the_owner_from_their_address(client: Client) -> None:
    # mallory signs up first with dora's address (unverified); dora still can, and verifies.
    signup(Client(), "mallory", "dora@example.com")
    signup(client, "dora", "dora@example.com")
    # One link per address in 3 minutes (mail bombing): dora's own waits for "send again".
    assert len(mails_to("dora@example.com")) == 1
    cache.clear()  # three minutes later
    client.post("/accounts/email/", {"email": "dora@example.com", "action_send": ""})
    mine = [m for m in mails_to("dora@example.com") if "as dora" in m.body or " dora." in m.body]
    assert len(mine) == 1
    client.post(link_in(mine[0]))
    assert has_verified_email(User.objects.get(username="dora").pk)
    assert not has_verified_email(User.objects.get(username="mallory").pk)


def test_it_writes_the_mail_in_german(client: Client) -> None:
    signup(client, "dora", "dora@example.com", **{"accept-language": "de"})
    [message] = mails_to("dora@example.com")
    assert message.subject == "Gin Rommé: Bestätige deine E-Mail-Adresse"
    assert "als dora bei Gin Rommé registriert" in message.body
    assert "Öffne diesen Link" in message.body
