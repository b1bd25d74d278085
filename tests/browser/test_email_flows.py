"""Sign-up with verification, a password reset and an e-mail change in real Chromium, in
English and German, with every mail read from a real SMTP server on loopback that the site
reaches through EMAIL_URL's SMTP backend (STARTTLS and a password, as in production)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from playwright.sync_api import Browser, BrowserContext, Page, expect

from ginsite.email_url import parse
from tests.accounts.conftest import give_address
from tests.browser.conftest import PHONE
from tests.mailserver import SmtpServer, smtp_server

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
NEW_PASSWORD = "a brand new pass phrase"

# What each player reads, in their language.
WORDS = {
    "en": {
        "locale": "en-US",
        "sign_up": "Sign up",
        "confirm_subject": "Gin Rummy: Confirm your e-mail address",
        "not_verified": "not verified yet",
        "verified": "verified",
        "confirm": "Confirm",
        "forgot": "Forgot your password?",
        "send_link": "Send me the link",
        "check_mail": "Check your mail",
        "reset_subject": "Gin Rummy: Choose a new password",
        "choose": "Choose a new password",
        "save": "Save the new password",
        "done": "Your new password is set.",
        "change_link": "Change your e-mail address",
        "change_button": "Change the address",
        "password_please": "Your password, please",
        "changing": "Changing to",
        "changed_subject": "Gin Rummy: Your e-mail address was changed",
    },
    "de": {
        "locale": "de-DE",
        "sign_up": "Registrieren",
        "confirm_subject": "Gin Rommé: Bestätige deine E-Mail-Adresse",
        "not_verified": "noch nicht bestätigt",
        "verified": "bestätigt",
        "confirm": "Bestätigen",
        "forgot": "Passwort vergessen?",
        "send_link": "Link schicken",
        "check_mail": "Schau in deine E-Mails",
        "reset_subject": "Gin Rommé: Wähle ein neues Passwort",
        "choose": "Wähle ein neues Passwort",
        "save": "Neues Passwort speichern",
        "done": "Dein neues Passwort ist gesetzt.",
        "change_link": "E-Mail-Adresse ändern",
        "change_button": "Adresse ändern",
        "password_please": "Dein Passwort, bitte",
        "changing": "Wechsel zu",
        "changed_subject": "Gin Rommé: Deine E-Mail-Adresse wurde geändert",
    },
}


@pytest.fixture
def smtp(settings, tmp_path: Path) -> Iterator[SmtpServer]:  # type: ignore[no-untyped-def]
    """The live server sends through a real SMTP server (its EMAIL_URL points there)."""
    cache.clear()  # allauth's limits count in the cache the live server shares with the test
    with smtp_server(tmp_path) as server:
        for name, value in parse(server.url).items():
            setattr(settings, name, value)
        yield server
    cache.clear()


@pytest.fixture(params=["en", "de"])
def lang(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def context(browser: Browser, lang: str) -> Iterator[BrowserContext]:
    made = browser.new_context(viewport=PHONE, locale=WORDS[lang]["locale"])
    yield made
    made.close()


def _link(body: str, base: str) -> str:
    [url] = re.findall(re.escape(base) + r"/\S+", body)
    return url


def _shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def _sign_in(page: Page, base: str, username: str, password: str) -> None:
    page.goto(base + "/accounts/login/")
    page.fill("input[name=login]", username)
    page.fill("input[name=password]", password)
    page.locator("form.stacked button[type=submit]").click()
    page.wait_for_url(base + "/")


def test_it_signs_up_and_verifies_the_address_by_its_link(
    base: str, context: BrowserContext, smtp: SmtpServer, lang: str
) -> None:
    words = WORDS[lang]
    page = context.new_page()
    page.goto(base + "/accounts/signup/")
    expect(page.locator("h1")).to_have_text(words["sign_up"])
    page.fill("input[name=username]", "dora")
    page.fill("input[name=display_name]", "Dora")
    page.fill("input[name=email]", "dora@example.com")
    page.fill("input[name=password1]", "a long pass phrase")
    page.fill("input[name=password2]", "a long pass phrase")
    page.locator("form.stacked button[type=submit]").click()
    page.wait_for_url(base + "/")  # signed in at once, playing casual matches unverified
    mail = smtp.wait_for("dora@example.com")
    assert mail.subject == words["confirm_subject"]
    page.goto(base + "/settings/")
    expect(page.locator("#email-status")).to_have_text(words["not_verified"])

    page.goto(_link(mail.body, base))
    expect(page.locator("main")).to_contain_text("dora@example.com")
    _shot(page, f"email-confirm-{lang}")
    page.get_by_role("button", name=words["confirm"]).click()
    page.wait_for_url(base + "/settings/")
    expect(page.locator("#email-status")).to_have_text(words["verified"])
    assert User.objects.get(username="dora").emailaddress_set.get().verified


def test_it_resets_a_forgotten_password_by_mail(
    base: str, context: BrowserContext, smtp: SmtpServer, lang: str, alice: User
) -> None:
    words = WORDS[lang]
    give_address(alice, "alice@example.com", verified=True)
    page = context.new_page()
    page.goto(base + "/accounts/login/")
    page.get_by_role("link", name=words["forgot"]).click()
    page.fill("input[name=email]", "alice@example.com")
    page.get_by_role("button", name=words["send_link"]).click()
    expect(page.locator("h1")).to_have_text(words["check_mail"])
    mail = smtp.wait_for("alice@example.com")
    assert mail.subject == words["reset_subject"]

    page.goto(_link(mail.body, base))
    expect(page.locator("h1")).to_have_text(words["choose"])
    page.fill("input[name=password1]", NEW_PASSWORD)
    page.fill("input[name=password2]", NEW_PASSWORD)
    _shot(page, f"email-reset-{lang}")
    page.get_by_role("button", name=words["save"]).click()
    expect(page.locator("main")).to_contain_text(words["done"])
    _sign_in(page, base, "alice", NEW_PASSWORD)


def test_it_changes_the_address_once_the_new_one_confirms(
    base: str, context: BrowserContext, smtp: SmtpServer, lang: str, alice: User, password: str
) -> None:
    words = WORDS[lang]
    give_address(alice, "alice@example.com", verified=True)
    page = context.new_page()
    _sign_in(page, base, "alice", password)
    page.goto(base + "/settings/")
    expect(page.locator("#email-address")).to_have_text("alice@example.com")
    page.get_by_role("link", name=words["change_link"]).click()
    page.fill("input[name=email]", "alice@new.example")
    page.get_by_role("button", name=words["change_button"]).click()
    # The password again, then back to the e-mail page with the change waiting for its link.
    expect(page.locator("h1")).to_have_text(words["password_please"])
    page.fill("input[name=password]", password)
    page.locator("form.stacked button[type=submit]").click()
    expect(page.locator("#pending-email-note")).to_contain_text(words["changing"])
    expect(page.locator("#current-email")).to_have_text("alice@example.com")
    _shot(page, f"email-change-{lang}")

    mail = smtp.wait_for("alice@new.example")
    assert mail.subject == words["confirm_subject"]
    page.goto(_link(mail.body, base))
    page.get_by_role("button", name=words["confirm"]).click()
    page.wait_for_url(base + "/settings/")
    expect(page.locator("#email-address")).to_have_text("alice@new.example")
    expect(page.locator("#email-status")).to_have_text(words["verified"])
    notice = smtp.wait_for("alice@example.com")
    assert notice.subject == words["changed_subject"]
    assert "alice@example.com" in notice.body and "alice@new.example" in notice.body
