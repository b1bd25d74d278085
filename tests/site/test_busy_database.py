"""A request that finds no free database connection (every connection of the pool stayed taken
for DB_POOL_TIMEOUT) is told to come back: 503 with Retry-After, JSON under /api/. Any other
database failure is still a 500."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.db import OperationalError
from django.test import Client
from psycopg_pool import PoolTimeout

from lobby.accounts import tokens

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db


def _pool_exhausted(*args: object, **kwargs: object) -> None:
    # What Django raises when psycopg's pool gives no connection in time.
    try:
        raise PoolTimeout("couldn't get a connection after 10.00 sec")
    except PoolTimeout as cause:
        raise OperationalError("couldn't get a connection after 10.00 sec") from cause


def _broken(*args: object, **kwargs: object) -> None:
    raise OperationalError("server closed the connection unexpectedly")


def test_an_api_call_that_gets_no_connection_is_asked_to_retry(
    alice: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    secret = tokens.create(alice, "busy")[1]
    monkeypatch.setattr(tokens, "authenticate", _pool_exhausted)
    client = Client(raise_request_exception=False)
    response = client.get("/api/v1/matches", headers={"Authorization": f"Bearer {secret}"})
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert json.loads(response.content)["code"] == "unavailable"


def test_a_page_that_gets_no_connection_says_the_server_is_busy(
    alice: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = Client(raise_request_exception=False)
    client.force_login(alice)
    monkeypatch.setattr(SessionStore, "load", _pool_exhausted)
    response = client.get("/lobby/")
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert b"busy" in response.content


def test_any_other_database_failure_is_still_a_server_error(
    alice: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    secret = tokens.create(alice, "broken")[1]
    monkeypatch.setattr(tokens, "authenticate", _broken)
    client = Client(raise_request_exception=False)
    response = client.get("/api/v1/matches", headers={"Authorization": f"Bearer {secret}"})
    assert response.status_code == 500
    assert "Retry-After" not in response
