from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

pytestmark = pytest.mark.django_db


def test_it_signs_out_with_a_post(client: Client, alice: User) -> None:
    client.force_login(alice)
    response = client.post("/accounts/logout/")
    assert response.status_code == 302
    assert "_auth_user_id" not in client.session
    page = client.get("/").content.decode()
    assert 'href="/accounts/login/"' in page


def test_it_asks_before_signing_out_on_a_get(client: Client, alice: User) -> None:
    client.force_login(alice)
    response = client.get("/accounts/logout/")
    assert response.status_code == 200
    assert "Are you sure you want to sign out?" in response.content.decode()
    assert "_auth_user_id" in client.session
