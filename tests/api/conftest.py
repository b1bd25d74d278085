"""Fixtures for the JSON API tests: players with personal tokens and clients that send them."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest
from django.core.cache import cache
from django.test import Client

from lobby.accounts import tokens

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.http import HttpResponse

API = "/api/v1"


class Api:
    """A client of the JSON API with one player's token."""

    def __init__(self, token: str | None, client: Client | None = None):
        self.token = token
        self.client = client or Client()

    def _headers(self, extra: dict[str, str] | None) -> dict[str, str]:
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        headers.update(extra or {})
        return headers

    def get(self, path: str, headers: dict[str, str] | None = None, **params: Any) -> HttpResponse:
        return self.client.get(API + path, params, headers=self._headers(headers))

    def post(
        self, path: str, body: Any = None, headers: dict[str, str] | None = None, raw: str = ""
    ) -> HttpResponse:
        data = raw if raw else ("" if body is None else json.dumps(body))
        return self.client.post(
            API + path, data, content_type="application/json", headers=self._headers(headers)
        )


def body(response: HttpResponse) -> Any:
    return json.loads(response.content)


def token_for(user: User, name: str = "test") -> str:
    return tokens.create(user, name)[1]


@pytest.fixture(autouse=True)
def _clear_cache() -> Iterator[None]:
    # Rate-limit counters and presence dedup live in the cache; each test starts clean.
    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def _generous_rate_limit(settings) -> None:  # type: ignore[no-untyped-def]
    # Whole matches take hundreds of requests a minute; the rate-limit tests set their own.
    settings.API_RATE_LIMIT = 100_000


@pytest.fixture
def alice_api(alice: User) -> Api:
    return Api(token_for(alice))


@pytest.fixture
def bob_api(bob: User) -> Api:
    return Api(token_for(bob))


@pytest.fixture
def carol_api(carol: User) -> Api:
    return Api(token_for(carol))


@pytest.fixture
def anonymous_api() -> Api:
    return Api(None)
