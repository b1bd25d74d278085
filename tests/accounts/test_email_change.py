"""Settings shows the address and its state; a change asks for the password, takes effect
only when the new address confirms its link, and the old (verified) address is told."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client

from lobby.accounts.emails import has_verified_email

from .conftest import Clock, give_address, link_in, mails_to, sign_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice_client(alice: User, password: str) -> Client:
    client = Client()
    sign_in(client, "alice", password)
    return client


def change_to(client: Client, email: str, password: str, **headers: str) -> None:
    """Ask for the change in Settings' e-mail page, giving the password when asked."""
    response = client.post("/accounts/email/", {"email": email, "action_add": ""}, headers=headers)
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/reauthenticate/")
    response = client.post(response["Location"], {"password": password}, headers=headers)
    assert response.status_code == 302, response.content.decode()[:300]


def addresses(user: User) -> list[tuple[str, bool]]:
    return list(
        EmailAddress.objects.filter(user=user).order_by("pk").values_list("email", "verified")
    )


def test_settings_shows_the_address_and_whether_it_is_verified(
    alice: User, alice_client: Client
) -> None:
    give_address(alice, "alice@example.com", verified=False)
    page = alice_client.get("/settings/").content.decode()
    assert 'id="email-address">alice@example.com<' in page
    assert "not verified yet" in page
    assert 'name="action_send"' in page and "Send the link again" in page
    assert 'href="/accounts/email/"' in page
    EmailAddress.objects.filter(user=alice).update(verified=True)
    page = alice_client.get("/settings/").content.decode()
    assert '<strong id="email-status">verified</strong>' in page
    assert 'name="action_send"' not in page


def test_an_account_without_an_address_is_invited_to_add_one(
    alice: User, alice_client: Client, password: str
) -> None:
    page = alice_client.get("/settings/").content.decode()
    assert "Your account has no e-mail address yet." in page
    assert "Add an e-mail address" in page
    change_to(alice_client, "alice@example.com", password)
    assert addresses(alice) == [("alice@example.com", False)]
    [message] = mails_to("alice@example.com")
    alice_client.post(link_in(message))
    assert has_verified_email(alice.pk)


def test_send_again_sends_a_new_link_but_not_a_flood(
    alice: User, alice_client: Client, allauth_clock: Clock
) -> None:
    give_address(alice, "alice@example.com", verified=False)

    def send_again() -> None:
        response = alice_client.post(
            "/accounts/email/", {"email": "alice@example.com", "action_send": ""}
        )
        assert response.status_code == 302

    for _ in range(3):
        send_again()
    # One link per address in three minutes, however often the button is pressed.
    assert len(mails_to("alice@example.com")) == 1
    allauth_clock.advance(170)
    send_again()
    assert len(mails_to("alice@example.com")) == 1
    allauth_clock.advance(11)
    send_again()
    assert len(mails_to("alice@example.com")) == 2
    # And ten a day, however patiently they are asked for.
    for _ in range(20):
        allauth_clock.advance(181)
        send_again()
    assert len(mails_to("alice@example.com")) == 10
    allauth_clock.advance(24 * 3600)
    send_again()
    assert len(mails_to("alice@example.com")) == 11


def test_a_change_takes_effect_only_when_the_new_address_confirms(
    alice: User, alice_client: Client, password: str
) -> None:
    give_address(alice, "alice@example.com", verified=True)
    change_to(alice_client, "alice@new.example", password)
    # Until the link is opened, mail goes to the old address, and Settings says so.
    assert addresses(alice) == [("alice@example.com", True), ("alice@new.example", False)]
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"
    page = alice_client.get("/settings/").content.decode()
    assert 'id="email-address">alice@example.com<' in page
    assert "Changing to alice@new.example" in page
    [link_mail] = mails_to("alice@new.example")
    assert mails_to("alice@example.com") == []
    # Opening it from any browser (here a fresh one) completes the change.
    Client().post(link_in(link_mail))
    assert addresses(alice) == [("alice@new.example", True)]
    alice.refresh_from_db()
    assert alice.email == "alice@new.example"
    # The old address is told, in plain text, naming both.
    [notice] = mails_to("alice@example.com")
    assert notice.subject == "Gin Rummy: Your e-mail address was changed"
    assert "from alice@example.com to alice@new.example" in notice.body
    assert link_in(link_mail) not in notice.body


def test_the_change_asks_for_the_password_first(alice: User, alice_client: Client) -> None:
    give_address(alice, "alice@example.com", verified=True)
    response = alice_client.post(
        "/accounts/email/", {"email": "mallory@example.com", "action_add": ""}
    )
    assert response["Location"].startswith("/accounts/reauthenticate/")
    # A wrong password changes nothing and sends nothing.
    page = alice_client.post(response["Location"], {"password": "not it"})
    assert page.status_code == 200
    assert addresses(alice) == [("alice@example.com", True)]
    assert mail.outbox == []


def test_an_unverified_old_address_is_replaced_and_told_nothing(
    alice: User, alice_client: Client, password: str
) -> None:
    # A typing slip at sign-up: the address was never shown to be alice's, so it is not told
    # where her mail goes now.
    give_address(alice, "alcie@example.com", verified=False)
    change_to(alice_client, "alice@example.com", password)
    assert addresses(alice) == [("alice@example.com", False)]
    alice_client.post(link_in(mails_to("alice@example.com")[0]))
    assert addresses(alice) == [("alice@example.com", True)]
    assert mails_to("alcie@example.com") == []


def test_cancelling_a_change_keeps_the_old_address(
    alice: User, alice_client: Client, password: str
) -> None:
    give_address(alice, "alice@example.com", verified=True)
    change_to(alice_client, "alice@new.example", password)
    link = link_in(mails_to("alice@new.example")[0])
    alice_client.post("/accounts/email/", {"email": "alice@new.example", "action_remove": ""})
    assert addresses(alice) == [("alice@example.com", True)]
    # The cancelled change's link confirms nothing.
    Client().post(link)
    assert addresses(alice) == [("alice@example.com", True)]


def test_the_page_and_the_mails_speak_german(
    alice: User, alice_client: Client, password: str
) -> None:
    give_address(alice, "alice@example.com", verified=True)
    german = {"accept-language": "de"}
    page = alice_client.get("/accounts/email/", headers=german).content.decode()
    assert "Aktuelle Adresse:" in page and "Adresse ändern" in page
    change_to(alice_client, "alice@new.example", password, **german)
    [message] = mails_to("alice@new.example")
    assert message.subject == "Gin Rommé: Bestätige deine E-Mail-Adresse"
    Client().post(link_in(message), headers=german)
    [notice] = mails_to("alice@example.com")
    assert notice.subject == "Gin Rommé: Deine E-Mail-Adresse wurde geändert"
