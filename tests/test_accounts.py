from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.template import engines
from django.test import Client

pytestmark = pytest.mark.django_db


def test_it_signs_up_with_a_username_display_name_and_password(client: Client) -> None:
    response = client.post(
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
    assert response["Location"] == "/"
    assert User.objects.filter(username="dora").exists()


def test_it_logs_in_with_a_username(client: Client, alice: User, password: str) -> None:
    response = client.post("/accounts/login/", {"login": "alice", "password": password})
    assert response.status_code == 302
    assert response["Location"] == "/"
    page = client.get("/").content.decode()
    assert "alice" in page


def test_it_has_partialdef_built_in() -> None:
    template = engines["django"].from_string(
        "{% partialdef status inline %}<p id='status'>ok</p>{% endpartialdef %}"
    )
    assert template.render({}) == "<p id='status'>ok</p>"
