"""A forgotten password is reset by a link mailed to the account's verified address, and the
page says the same whatever address is asked for."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client

from .conftest import Clock, give_address, link_in, mails_to, sign_in

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "a brand new pass phrase"


def ask(client: Client, email: str, **headers: str):  # type: ignore[no-untyped-def]
    return client.post("/accounts/password/reset/", {"email": email}, headers=headers)


def test_the_sign_in_page_offers_it(client: Client) -> None:
    page = client.get("/accounts/login/").content.decode()
    assert 'href="/accounts/password/reset/"' in page and "Forgot your password?" in page


def test_it_mails_a_link_that_sets_a_new_password(client: Client, alice: User) -> None:
    give_address(alice, "alice@example.com", verified=True)
    response = ask(client, "ALICE@example.com")
    assert response.status_code == 302
    assert "If that is the verified address" in client.get(response["Location"]).content.decode()
    [message] = mails_to("alice@example.com")
    assert message.subject == "Gin Rummy: Choose a new password"
    assert "for the Gin Rummy account alice." in message.body
    assert not getattr(message, "alternatives", [])
    # The link leads to a form (the key moves out of the address bar), then the new password.
    form = client.get(link_in(message), follow=True)
    assert "Choose a new password" in form.content.decode()
    set_url = form.redirect_chain[-1][0]
    done = client.post(set_url, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})
    assert done.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)
    # The link works once; the address is told the password was reset.
    assert "not valid any more" in client.get(link_in(message), follow=True).content.decode()
    assert mails_to("alice@example.com")[-1].subject == "Gin Rummy: Your password was reset"
    sign_in(Client(), "alice", NEW_PASSWORD)


@pytest.mark.parametrize("case", ["unknown", "unverified"])
def test_it_says_the_same_and_sends_nothing_where_there_is_no_verified_account(
    client: Client, alice: User, bob: User, case: str
) -> None:
    give_address(alice, "alice@example.com", verified=True)
    give_address(bob, "bob@example.com", verified=False)
    address = "nobody@example.com" if case == "unknown" else "bob@example.com"
    known = ask(Client(), "alice@example.com")
    other = ask(client, address)
    assert other.status_code == known.status_code == 302
    assert other["Location"] == known["Location"]
    # An address nobody confirmed may be a stranger's: no link goes there.
    assert mails_to(address) == []


def test_it_limits_links_to_one_address(client: Client, alice: User, allauth_clock: Clock) -> None:
    give_address(alice, "alice@example.com", verified=True)
    for n in range(3):
        assert ask(Client(REMOTE_ADDR=f"203.0.113.{n}"), "alice@example.com").status_code == 302
    # A fourth within the hour, from anywhere: refused, and no mail (no mailbox flooding).
    allauth_clock.advance(59 * 60)
    response = ask(Client(REMOTE_ADDR="198.51.100.1"), "alice@example.com")
    assert response.status_code == 429
    assert "Too many requests" in response.content.decode()
    assert len(mails_to("alice@example.com")) == 3
    allauth_clock.advance(61 * 60)
    assert ask(Client(REMOTE_ADDR="198.51.100.1"), "alice@example.com").status_code == 302
    assert len(mails_to("alice@example.com")) == 4
    # The same answer for an address without an account: the limit tells nobody anything.
    for _ in range(3):
        ask(client, "nobody@example.com")
    assert ask(client, "nobody@example.com").status_code == 429


def test_it_writes_the_page_and_the_mail_in_german(client: Client, alice: User) -> None:
    give_address(alice, "alice@example.com", verified=True)
    page = client.get("/accounts/password/reset/", headers={"accept-language": "de"})
    assert "Passwort vergessen?" in page.content.decode()
    ask(client, "alice@example.com", **{"accept-language": "de"})
    [message] = mails_to("alice@example.com")
    assert message.subject == "Gin Rommé: Wähle ein neues Passwort"
    assert "für das Gin-Rommé-Konto alice angefordert" in message.body
    assert mail.outbox == [message]
