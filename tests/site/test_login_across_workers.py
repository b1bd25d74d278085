"""With REDIS_URL the failed sign-ins of a name are counted in Redis, so every worker sees them:
a lockout earned through one process holds in another."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from axes.helpers import get_client_cache_keys
from axes.models import AccessAttempt
from django.contrib.auth.models import User
from django.core.cache import cache, caches
from django.http import HttpRequest
from django.test import Client

from ginsite.logins import NameAndAddressLockout

pytestmark = [pytest.mark.distributed, pytest.mark.django_db]


@pytest.fixture(autouse=True)
def _clear_cache() -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()


def _request() -> HttpRequest:
    return HttpRequest()


def test_it_counts_failures_in_the_shared_cache(
    redis_only: None, alice: User, password: str
) -> None:
    for _ in range(5):
        Client().post("/accounts/login/", {"login": "alice", "password": "wrong"})
    # Another process has its own cache client: only Redis is shared with this one.
    other_worker = caches.create_connection("default")
    assert other_worker is not cache
    keys = get_client_cache_keys(AccessAttempt(username="alice", ip_address="127.0.0.1"))
    assert [other_worker.get(key) for key in keys] == [5]  # per name and address
    name_only = NameAndAddressLockout()._name_key(_request(), {"username": "alice"})
    assert other_worker.get(name_only) == 5  # per name alone, whatever the address
    response = Client().post("/accounts/login/", {"login": "alice", "password": password})
    assert response.status_code == 429
