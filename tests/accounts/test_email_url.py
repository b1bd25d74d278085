from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from ginsite.email_url import parse


def test_it_reads_an_smtp_url_with_starttls() -> None:
    mail = parse("smtp://gin%40example.com:p%40ss%20word@mail.example:587")
    assert mail["EMAIL_BACKEND"] == "django.core.mail.backends.smtp.EmailBackend"
    assert (mail["EMAIL_HOST"], mail["EMAIL_PORT"]) == ("mail.example", 587)
    assert (mail["EMAIL_HOST_USER"], mail["EMAIL_HOST_PASSWORD"]) == (
        "gin@example.com",
        "p@ss word",
    )
    assert (mail["EMAIL_USE_TLS"], mail["EMAIL_USE_SSL"]) == (True, False)


def test_it_reads_implicit_tls_and_default_ports() -> None:
    mail = parse("smtps://mail.example")
    assert (mail["EMAIL_PORT"], mail["EMAIL_USE_TLS"], mail["EMAIL_USE_SSL"]) == (465, False, True)
    assert parse("smtp://mail.example")["EMAIL_PORT"] == 587


def test_it_sends_in_clear_only_when_told() -> None:
    mail = parse("smtp://localhost:25?tls=off")
    assert (mail["EMAIL_PORT"], mail["EMAIL_USE_TLS"], mail["EMAIL_USE_SSL"]) == (25, False, False)


def test_it_knows_the_backends_that_need_no_server() -> None:
    assert parse("console://")["EMAIL_BACKEND"].endswith("console.EmailBackend")
    assert parse("locmem://")["EMAIL_BACKEND"].endswith("locmem.EmailBackend")


@pytest.mark.parametrize(
    "url",
    [
        "mailto:gin@example.com",
        "http://mail.example",
        "smtp://",
        "smtp://mail.example:port",
        "smtp://mail.example?tls=maybe",
        "smtp://mail.example?ssl=1",
        "smtps://mail.example?tls=off",
    ],
)
def test_it_refuses_what_it_cannot_send_with(url: str) -> None:
    with pytest.raises(ImproperlyConfigured, match="EMAIL_URL"):
        parse(url)
