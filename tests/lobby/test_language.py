from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_it_speaks_english_by_default(client: Client) -> None:
    response = client.get("/accounts/login/")
    assert response["Content-Language"] == "en"
    assert '<html lang="en">' in response.content.decode()


def test_it_follows_accept_language(client: Client) -> None:
    response = client.get("/accounts/login/", headers={"accept-language": "de-DE,de;q=0.9"})
    page = response.content.decode()
    assert response["Content-Language"] == "de"
    assert '<html lang="de">' in page
    assert "Anmelden" in page
    assert "Registrieren" in page


def test_it_follows_the_language_cookie(client: Client) -> None:
    client.cookies["django_language"] = "de"
    page = client.get("/accounts/signup/", headers={"accept-language": "en"}).content.decode()
    assert "Anzeigename" in page


def test_it_switches_with_the_header_form(client: Client) -> None:
    switcher = client.get("/accounts/login/").content.decode()
    assert 'action="/i18n/setlang/"' in switcher
    assert 'name="next" value="/accounts/login/"' in switcher
    response = client.post("/i18n/setlang/", {"language": "de", "next": "/accounts/login/"})
    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/"
    assert response.cookies["django_language"].value == "de"
    assert "Anmelden" in client.get("/accounts/login/").content.decode()


def test_it_shows_display_name_errors_in_german(client: Client) -> None:
    client.cookies["django_language"] = "de"
    response = client.post(
        "/accounts/signup/",
        {
            "username": "dora",
            "display_name": "D",
            "email": "dora@example.com",
            "password1": "x",
            "password2": "x",
        },
    )
    assert "Ein Anzeigename braucht mindestens 2 Zeichen." in response.content.decode()
