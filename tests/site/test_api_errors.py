"""Every answer under /api/ is the documented JSON {code, message}, whoever gave it: the API's
handlers, Django before them (a body over the size limit, a form body) or after (a method the
path does not have, an unknown path, a server error)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import pytest
from django.test import Client

from lobby.accounts import tokens

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.http import HttpResponse

pytestmark = pytest.mark.django_db

THREE_MB = "x" * (3 * 1024 * 1024)


@pytest.fixture
def token(alice: User) -> str:
    return tokens.create(alice, "errors")[1]


def _error(response: HttpResponse) -> dict[str, Any]:
    assert response["Content-Type"] == "application/json"
    body = json.loads(response.content)
    assert set(body) >= {"code", "message"}
    assert body["message"]
    return body  # type: ignore[no-any-return]


@pytest.mark.parametrize("idempotency", [False, True])
def test_it_answers_413_in_json_to_a_body_over_the_limit(token: str, idempotency: bool) -> None:
    headers = {"Authorization": f"Bearer {token}"}
    if idempotency:  # the idempotency middleware reads the body too
        headers["Idempotency-Key"] = "big-one"
    response = Client().post(
        "/api/v1/challenges", THREE_MB, content_type="application/json", headers=headers
    )
    assert response.status_code == 413
    assert _error(response)["code"] == "too_large"


def test_it_answers_413_in_json_to_anonymous_clients_too() -> None:
    response = Client().post("/api/v1/challenges", THREE_MB, content_type="application/json")
    assert response.status_code == 413
    assert _error(response)["code"] == "too_large"


@pytest.mark.parametrize("method", ["put", "patch", "delete"])
def test_it_answers_405_in_json_naming_the_allowed_methods(token: str, method: str) -> None:
    response = getattr(Client(), method)(
        "/api/v1/challenges",
        "{}",
        content_type="application/json",
        headers={"Authorization": f"Bearer {token}"},
    )
    assert response.status_code == 405
    body = _error(response)
    assert body["code"] == "method_not_allowed"
    assert "GET" in response["Allow"] and "POST" in response["Allow"]
    assert method.upper() in body["message"]


@pytest.mark.parametrize("idempotency", [False, True])
def test_it_refuses_a_multipart_body_saying_to_send_json(token: str, idempotency: bool) -> None:
    headers = {"Authorization": f"Bearer {token}"}
    if idempotency:
        headers["Idempotency-Key"] = "form-one"
    response = Client().post("/api/v1/challenges", {"to": "bob"}, headers=headers)
    assert response.status_code == 400
    body = _error(response)
    assert body["code"] == "malformed"
    assert "JSON" in body["message"]


@pytest.mark.parametrize("path", ["/api/v1/", "/api/v1", "/api/", "/api/v2/me", "/api/v1/nothing"])
def test_it_answers_404_in_json_for_paths_it_does_not_have(token: str, path: str) -> None:
    for headers in ({}, {"Authorization": f"Bearer {token}"}):
        response = Client().get(path, headers=headers)
        assert response.status_code == 404, path
        assert _error(response)["code"] == "not_found"


def test_it_answers_a_server_error_in_json(token: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from lobby.api import routes as lobby_api

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("boom")

    monkeypatch.setattr(lobby_api, "player_stats", broken)
    response = Client(raise_request_exception=False).get(
        "/api/v1/me", headers={"Authorization": f"Bearer {token}"}
    )
    assert response.status_code == 500
    body = _error(response)
    assert body["code"] == "server_error"
    assert "boom" not in response.content.decode()


def test_it_leaves_the_docs_page_and_successes_alone(token: str) -> None:
    assert Client().get("/api/docs")["Content-Type"].startswith("text/html")
    response = Client().get("/api/v1/me", headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 200


def test_it_lets_an_empty_form_body_through_as_no_body(token: str) -> None:
    # `curl -X POST -d ''` sends an empty form: the API answers as for no body at all.
    response = Client().post(
        "/api/v1/challenges/999999/cancel",
        "",
        content_type="application/x-www-form-urlencoded",
        headers={"Authorization": f"Bearer {token}"},
    )
    assert response.status_code == 404
    assert _error(response)["code"] == "not_found"
