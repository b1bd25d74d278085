"""A NUL character anywhere in a request is refused with 400 or 404, never a 500.

PostgreSQL refuses NUL in text, so on it every lookup by a name or id from the request used to
fail with "PostgreSQL text fields cannot contain NUL (0x00) bytes": a 500, for anonymous
visitors too. SQLite accepts NUL, so there the same requests check the answers' shape; the
PostgreSQL pass proves no 500 is left.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest
from django.db import connection
from django.test import Client

from lobby.accounts import tokens

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db

ACTION = '{"action": {"type": "draw", "from": "stock"}, "version": 1}'

# (method, path, JSON body or None, status expected of a signed-in player)
REQUESTS = [
    ("get", "/api/v1/matches/%00", None, 404),
    ("get", "/api/v1/players/%00", None, 404),
    ("get", "/api/v1/players/al%00ice", None, 404),
    ("post", "/api/v1/matches/%00/actions", ACTION, 404),
    ("post", "/api/v1/challenges", '{"to": "\\u0000"}', 400),
    ("post", "/api/v1/challenges", '{"to": "bob\\u0000"}', 400),
    ("post", "/api/v1/matches/abc/actions", ACTION.replace("stock", "st\\u0000ock"), 400),
    ("get", "/api/v1/matches?status=%00", None, 400),
    ("get", "/games/%00/", None, 404),
    ("get", "/games/t/%00/", None, 404),
    ("get", "/games/local/%00/", None, 404),
    ("get", "/players/%00/", None, 404),
    ("get", "/lobby/?x=%00", None, 400),
]

FORMS = [
    ("/lobby/challenges/", {"to": "b\x00ob"}),
    ("/settings/api-tokens/", {"name": "\x00"}),
    ("/accounts/login/", {"login": "al\x00ice", "password": "x"}),
    ("/admin/login/", {"username": "a\x00", "password": "x"}),
]


def _send(client: Client, method: str, path: str, data: str | None, **headers: str):  # type: ignore[no-untyped-def]
    if data is None:
        return getattr(client, method)(path, headers=headers)
    return client.post(path, data, content_type="application/json", headers=headers)


def _check_every_request(alice: User) -> None:
    token = tokens.create(alice, "nul")[1]
    anonymous = Client(raise_request_exception=False)
    signed_in = Client(raise_request_exception=False)
    signed_in.force_login(alice)
    for method, path, data, expected in REQUESTS:
        for who, client, headers in [
            ("token", Client(raise_request_exception=False), {"Authorization": f"Bearer {token}"}),
            ("session", signed_in, {}),
        ]:
            response = _send(client, method, path, data, **headers)
            assert response.status_code == expected, (who, method, path, data)
            if path.startswith("/api/"):
                body = json.loads(response.content)
                assert body["code"] == ("not_found" if expected == 404 else "malformed")
        response = _send(anonymous, method, path, data)
        # Anonymous: refused before anything is looked up (or 401 where the body is read).
        assert response.status_code in {expected, 401}, ("anonymous", method, path)
        assert response.status_code < 500
    for path, form in FORMS:
        assert signed_in.post(path, form).status_code == 400, path
        assert anonymous.post(path, form).status_code in {400, 302}, path


def test_it_answers_400_or_404_to_a_nul_character(alice: User, bob: User) -> None:
    _check_every_request(alice)


def test_it_never_fails_on_a_nul_character_on_postgresql(
    postgresql_only: None, alice: User, bob: User
) -> None:
    assert connection.vendor == "postgresql"
    _check_every_request(alice)


def test_it_ignores_a_session_cookie_holding_nul(client: Client) -> None:
    client.cookies["sessionid"] = "abcdefgh\x00ijklmnop"
    response = client.get("/lobby/")
    # As for anyone signed out: the lobby says it needs an account and offers sign-up.
    assert response.status_code == 200
    assert "/accounts/signup/" in response.content.decode()
    assert 'id="lobby-players"' not in response.content.decode()


def test_it_refuses_nul_in_an_api_body_saying_where(alice: User) -> None:
    token = tokens.create(alice, "nul")[1]
    response = Client().post(
        "/api/v1/challenges",
        '{"to": "\\u0000"}',
        content_type="application/json",
        headers={"Authorization": f"Bearer {token}"},
    )
    assert response.status_code == 400
    body = json.loads(response.content)
    assert body["code"] == "malformed"
    assert "NUL" in json.dumps(body["errors"])
