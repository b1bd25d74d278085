from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

pytestmark = pytest.mark.django_db

PASSPHRASE = "a long pass phrase"


def _signup(client: Client, display_name: str, username: str = "dora"):
    return client.post(
        "/accounts/signup/",
        {
            "username": username,
            "display_name": display_name,
            "email": f"{username}@example.com",
            "password1": PASSPHRASE,
            "password2": PASSPHRASE,
        },
    )


def _name_errors(response) -> list[str]:
    return response.context["form"].errors.get("display_name", [])


def test_it_shows_the_form_in_the_site_layout(client: Client) -> None:
    page = client.get("/accounts/signup/").content.decode()
    assert 'name="display_name"' in page
    assert 'maxlength="24"' in page
    assert 'class="site-header"' in page
    assert "/static/css/site.css" in page


def test_it_signs_up_with_a_display_name(client: Client) -> None:
    response = _signup(client, "Dora the Knocker")
    assert response.status_code == 302
    dora = User.objects.get(username="dora")
    assert dora.profile.display_name == "Dora the Knocker"
    # Signed in straight away, and the header shows the display name.
    assert "Dora the Knocker" in client.get("/").content.decode()


def test_it_trims_the_display_name(client: Client) -> None:
    response = _signup(client, "   Dora    Mae  ")
    assert response.status_code == 302
    assert User.objects.get(username="dora").profile.display_name == "Dora Mae"


def test_it_requires_a_display_name(client: Client) -> None:
    response = _signup(client, "")
    assert response.status_code == 200
    assert _name_errors(response)
    assert not User.objects.filter(username="dora").exists()


def test_it_refuses_a_too_short_name(client: Client) -> None:
    response = _signup(client, " D ")
    assert response.status_code == 200
    assert _name_errors(response) == ["A display name needs at least 2 characters."]
    assert "A display name needs at least 2 characters." in response.content.decode()
    assert not User.objects.filter(username="dora").exists()


def test_it_refuses_a_too_long_name(client: Client) -> None:
    response = _signup(client, "D" * 25)
    assert _name_errors(response) == ["A display name can have at most 24 characters."]
    assert not User.objects.filter(username="dora").exists()


def test_it_accepts_exactly_24_characters(client: Client) -> None:
    assert _signup(client, "D" * 24).status_code == 302


def test_it_refuses_a_taken_name_in_another_case(client: Client, alice: User) -> None:
    response = _signup(client, "ALICE")
    assert _name_errors(response) == ["“ALICE” is already taken. Please choose another name."]
    assert not User.objects.filter(username="dora").exists()


def test_it_refuses_the_reserved_name_in_any_case(client: Client) -> None:
    for name in ["Bea", "bEA", " bea "]:
        response = _signup(client, name)
        assert _name_errors(response)[0].endswith("is reserved. Please choose another name.")
    assert not User.objects.filter(username="dora").exists()


def test_it_refuses_punctuation_only(client: Client) -> None:
    for name in ["...", "-- __ --", "  !!  "]:
        response = _signup(client, name)
        assert _name_errors(response) == ["A display name needs at least one letter or digit."]


def test_it_refuses_invisible_characters(client: Client) -> None:
    response = _signup(client, "Do\u200bra")
    assert _name_errors(response) == [
        "A display name cannot contain invisible, blank or control characters."
    ]


def test_it_accepts_letters_beyond_ascii(client: Client) -> None:
    assert _signup(client, "Jürgen Ærø").status_code == 302
    assert User.objects.get(username="dora").profile.display_name == "Jürgen Ærø"
