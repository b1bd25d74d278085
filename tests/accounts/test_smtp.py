"""The production path: EMAIL_URL's SMTP backend, STARTTLS and a password, against a real
SMTP server on loopback, delivers the verification mail of a sign-up."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.test import Client

from ginsite.email_url import parse
from tests.mailserver import USER, smtp_server

pytestmark = pytest.mark.django_db


def test_a_sign_up_reaches_a_real_smtp_server(settings, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    with smtp_server(tmp_path) as server:
        for name, value in parse(server.url).items():
            setattr(settings, name, value)
        assert settings.EMAIL_BACKEND == "django.core.mail.backends.smtp.EmailBackend"
        settings.DEFAULT_FROM_EMAIL = "Gin Rummy <gin@gin.example>"
        response = Client().post(
            "/accounts/signup/",
            {
                "username": "dora",
                "display_name": "Dora",
                "email": "dora@example.com",
                "password1": "a long pass phrase",
                "password2": "a long pass phrase",
            },
        )
        assert response.status_code == 302
        mail = server.wait_for("dora@example.com")
    assert mail.user == USER  # it signed in
    assert server.tls_seen == [True]  # after STARTTLS
    assert mail.sender == "gin@gin.example"
    assert mail.subject == "Gin Rummy: Confirm your e-mail address"
    assert mail.message.get_content_type() == "text/plain"
    assert "http://testserver/accounts/confirm-email/" in mail.body


def test_a_server_that_is_down_does_not_break_the_sign_up(settings, caplog) -> None:  # type: ignore[no-untyped-def]
    # Nothing listens on port 9 (discard): the mail fails, the account is made, the player can
    # ask for the link again from Settings, and the log says which mail failed (not to whom).
    for name, value in parse("smtp://127.0.0.1:9?tls=off").items():
        setattr(settings, name, value)
    response = Client().post(
        "/accounts/signup/",
        {
            "username": "dora",
            "display_name": "Dora",
            "email": "dora@example.com",
            "password1": "a long pass phrase",
            "password2": "a long pass phrase",
        },
    )
    assert response.status_code == 302
    failures = [r.getMessage() for r in caplog.records if r.name == "lobby.accounts.adapter"]
    assert len(failures) == 1 and "email_confirmation_signup" in failures[0]
    assert "dora@example.com" not in failures[0]
