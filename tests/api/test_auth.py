"""Who may use the API: personal tokens (hashed, revocable), the session with CSRF, nobody else."""

from __future__ import annotations

import pytest
from django.test import Client

from lobby.accounts import tokens
from lobby.models import ApiToken

from .conftest import Api, body, token_for

pytestmark = pytest.mark.django_db


def test_it_refuses_a_request_without_credentials(anonymous_api: Api):
    response = anonymous_api.get("/me")
    assert response.status_code == 401
    assert body(response)["code"] == "unauthorized"
    assert response["WWW-Authenticate"] == "Bearer"


def test_it_refuses_an_unknown_token():
    response = Api("gin_not-a-real-token").get("/me")
    assert response.status_code == 401
    assert body(response)["code"] == "invalid_token"


def test_it_refuses_a_header_that_is_not_bearer(alice_api: Api):
    response = alice_api.get("/me", headers={"Authorization": "Basic YWxpY2U6eA=="})
    assert response.status_code == 401
    assert body(response)["code"] == "unauthorized"


def test_it_refuses_a_revoked_token(alice):
    secret = token_for(alice)
    assert Api(secret).get("/me").status_code == 200
    token = ApiToken.objects.get(user=alice)
    assert tokens.revoke(alice, token.pk)
    response = Api(secret).get("/me")
    assert response.status_code == 401
    assert body(response)["code"] == "invalid_token"


def test_it_refuses_the_token_of_a_deactivated_player(alice):
    secret = token_for(alice)
    alice.is_active = False
    alice.save()
    assert Api(secret).get("/me").status_code == 401


def test_it_stores_only_a_digest_and_a_short_prefix(alice):
    token, secret = tokens.create(alice, "bot")
    assert secret.startswith("gin_") and len(secret) > 40
    assert token.digest == tokens.digest(secret) != secret
    assert secret.startswith(token.prefix) and len(token.prefix) == 12
    assert not ApiToken.objects.filter(digest=secret).exists()


def test_it_notes_when_a_token_was_last_used(alice):
    secret = token_for(alice)
    assert ApiToken.objects.get(user=alice).last_used_at is None
    Api(secret).get("/me")
    assert ApiToken.objects.get(user=alice).last_used_at is not None


def test_it_serves_the_browser_by_session_on_safe_methods(alice):
    client = Client()
    client.force_login(alice)
    response = client.get("/api/v1/me")
    assert response.status_code == 200
    assert body(response)["username"] == "alice"


def test_it_wants_the_csrf_token_from_a_session_on_posts(alice, bob):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    response = client.post("/api/v1/seeks", "{}", content_type="application/json")
    assert response.status_code == 403
    assert body(response)["code"] == "csrf_failed"
    client.get("/settings/")  # sets the CSRF cookie, as any page does
    csrf = client.cookies["csrftoken"].value
    response = client.post(
        "/api/v1/seeks", "{}", content_type="application/json", headers={"X-CSRFToken": csrf}
    )
    assert response.status_code == 201


def test_a_token_needs_no_csrf_token(alice):
    client = Client(enforce_csrf_checks=True)
    response = Api(token_for(alice), client).post("/seeks", {})
    assert response.status_code == 201


def test_it_publishes_the_schema_and_the_docs(anonymous_api: Api):
    schema = anonymous_api.client.get("/api/v1/openapi.json")
    assert schema.status_code == 200
    paths = body(schema)["paths"]
    assert "/api/v1/matches/{match_id}/actions" in paths
    docs = anonymous_api.client.get("/api/docs")
    assert docs.status_code == 200
    assert b"/api/v1/openapi.json" in docs.content
    assert b"cdn" not in docs.content.lower()  # Swagger UI is served from our static files


def test_an_unknown_path_is_a_json_404(alice_api: Api):
    response = alice_api.get("/no/such/thing")
    assert response.status_code == 404
    assert body(response)["code"] == "not_found"
