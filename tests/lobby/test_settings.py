from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

pytestmark = pytest.mark.django_db


def test_it_requires_sign_in(client: Client) -> None:
    response = client.get("/settings/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_it_shows_the_current_name(client: Client, alice: User) -> None:
    client.force_login(alice)
    page = client.get("/settings/").content.decode()
    assert 'value="alice"' in page
    assert 'name="language"' in page


def test_it_changes_the_display_name(client: Client, alice: User) -> None:
    client.force_login(alice)
    response = client.post("/settings/", {"display_name": "  Gin Queen ", "language": ""})
    assert response.status_code == 302
    alice.profile.refresh_from_db()
    assert alice.profile.display_name == "Gin Queen"
    page = client.get(response["Location"]).content.decode()
    assert "Settings saved." in page
    assert "Gin Queen" in page


def test_it_keeps_my_own_name_in_another_case(client: Client, alice: User) -> None:
    client.force_login(alice)
    response = client.post("/settings/", {"display_name": "ALICE", "language": ""})
    assert response.status_code == 302
    alice.profile.refresh_from_db()
    assert alice.profile.display_name == "ALICE"


def test_it_refuses_a_taken_name(client: Client, alice: User, bob: User) -> None:
    client.force_login(alice)
    response = client.post("/settings/", {"display_name": "Bob", "language": ""})
    assert response.status_code == 200
    assert "“Bob” is already taken. Please choose another name." in response.content.decode()
    alice.profile.refresh_from_db()
    assert alice.profile.display_name == "alice"


def test_it_refuses_the_reserved_name(client: Client, alice: User) -> None:
    client.force_login(alice)
    response = client.post("/settings/", {"display_name": "BEA", "language": ""})
    assert response.status_code == 200
    assert "is reserved" in response.content.decode()


def test_it_sets_the_language_and_its_cookie(client: Client, alice: User) -> None:
    client.force_login(alice)
    response = client.post("/settings/", {"display_name": "alice", "language": "de"})
    assert response.status_code == 302
    assert response.cookies["django_language"].value == "de"
    alice.profile.refresh_from_db()
    assert alice.profile.language == "de"
    # It applies at once: the next page is German.
    page = client.get(response["Location"])
    assert page["Content-Language"] == "de"
    assert "Einstellungen gespeichert." in page.content.decode()


def test_it_forgets_the_language_for_browser_default(client: Client, alice: User) -> None:
    alice.profile.language = "de"
    alice.profile.save()
    client.force_login(alice)
    client.cookies["django_language"] = "de"
    response = client.post("/settings/", {"display_name": "alice", "language": ""})
    assert response.status_code == 302
    assert response.cookies["django_language"].value == ""
    alice.profile.refresh_from_db()
    assert alice.profile.language == ""


def test_it_refuses_an_unknown_language(client: Client, alice: User) -> None:
    client.force_login(alice)
    response = client.post("/settings/", {"display_name": "alice", "language": "xx"})
    assert response.status_code == 200
    alice.profile.refresh_from_db()
    assert alice.profile.language == ""


def test_it_leaves_a_place_for_api_tokens(client: Client, alice: User) -> None:
    client.force_login(alice)
    names = [t.name for t in client.get("/settings/").templates]
    assert "lobby/settings_api_tokens.html" in names


def test_it_keeps_the_language_chosen_in_the_header(client: Client, alice: User) -> None:
    """Issue 41: "Deutsch" in the header, then Settings saved for another reason, kept German."""
    client.force_login(alice)
    client.post("/i18n/setlang/", {"language": "de", "next": "/settings/"})
    page = client.get("/settings/").content.decode()
    assert '<option value="de" selected>' in page
    # The browser sends the form as shown: the language in force goes with it.
    response = client.post(
        "/settings/", {"display_name": "alice", "language": "de", "plays_by_bot": "on"}
    )
    assert response.cookies["django_language"].value == "de"
    assert "Einstellungen gespeichert." in client.get(response["Location"]).content.decode()
