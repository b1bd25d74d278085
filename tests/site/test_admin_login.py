"""The admin's sign-in is throttled like the site's: per name and address, however many passwords
are tried."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client

pytestmark = pytest.mark.django_db

ADMIN_PASSWORD = "the admin's own long pass phrase"


@pytest.fixture(autouse=True)
def _clear_cache() -> Iterator[None]:
    cache.clear()  # the failure counts live in the cache
    yield
    cache.clear()


@pytest.fixture
def admin_user(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_superuser("root", password=ADMIN_PASSWORD)


def _signed_in_to_admin(client: Client) -> bool:
    return client.get("/admin/").status_code == 200


def test_it_signs_the_admin_in(client: Client, admin_user: User) -> None:
    response = client.post("/admin/login/", {"username": "root", "password": ADMIN_PASSWORD})
    assert response.status_code == 302
    assert _signed_in_to_admin(client)


def test_it_keeps_the_admin_out_after_thirty_wrong_passwords(
    client: Client, admin_user: User
) -> None:
    statuses = [
        client.post("/admin/login/", {"username": "root", "password": f"guess {n}"}).status_code
        for n in range(30)
    ]
    assert statuses[:4] == [200] * 4  # the form again, with its error
    assert set(statuses[4:]) == {429}
    response = client.post("/admin/login/", {"username": "root", "password": ADMIN_PASSWORD})
    assert response.status_code == 429
    assert "Too many failed sign-ins" in response.content.decode()
    assert not _signed_in_to_admin(client)
    # The lockout is the name's at this address, not the browser's: a fresh client is refused.
    other = Client()
    other.post("/admin/login/", {"username": "ROOT", "password": ADMIN_PASSWORD})
    assert not _signed_in_to_admin(other)
