"""An app signs a player in (authorization code + PKCE) and uses the API within the scopes the
player granted; refresh, revoke, and the refusals where a scope does not reach."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.api.conftest import Api, body
from tests.oauth.conftest import REDIRECT, authorize_query, code_from, grant, pkce, register

pytestmark = pytest.mark.django_db


def _refresh(refresh_token: str, client_id: str):  # type: ignore[no-untyped-def]
    form = {"grant_type": "refresh_token", "refresh_token": refresh_token, "client_id": client_id}
    return Client().post("/oauth/token/", form)


@pytest.fixture
def alice_browser(alice) -> Client:
    client = Client()
    client.force_login(alice)
    return client


def test_it_gives_an_app_a_token_that_reads_as_the_player(alice_browser, app_id, alice):
    tokens = grant(alice_browser, app_id, "read")
    assert tokens["access_token"].startswith("gina_")
    assert tokens["refresh_token"].startswith("ginr_")
    assert tokens["token_type"] == "Bearer" and tokens["scope"] == "read"
    me = Api(tokens["access_token"]).get("/me")
    assert me.status_code == 200
    assert body(me)["username"] == "alice"


def test_it_refuses_what_a_scope_does_not_reach(alice_browser, app_id, bob):
    app = Api(grant(alice_browser, app_id, "read")["access_token"])
    challenge = app.post("/challenges", {"to": "bob"})
    assert challenge.status_code == 403
    assert body(challenge)["code"] == "insufficient_scope"
    assert 'scope="lobby"' in challenge["WWW-Authenticate"]
    move = app.post("/matches/abc/actions", {"version": 0, "action": {"type": "take_upcard"}})
    assert body(move)["code"] == "insufficient_scope"
    assert 'scope="play"' in move["WWW-Authenticate"]


def test_it_lets_a_lobby_scope_follow(alice_browser, app_id, bob):
    app = Api(grant(alice_browser, app_id, "read lobby")["access_token"])
    follow = app.post("/players/bob/follow")
    assert follow.status_code in (200, 201), follow.content
    assert [f["username"] for f in body(app.get("/me/friends"))] == ["bob"]


def test_an_expired_access_token_says_to_refresh_and_the_refresh_works(alice_browser, app_id):
    from datetime import timedelta

    from django.utils import timezone
    from oauth2_provider.models import AccessToken

    tokens = grant(alice_browser, app_id, "read")
    AccessToken.objects.update(expires=timezone.now() - timedelta(seconds=1))
    expired = Api(tokens["access_token"]).get("/me")
    assert expired.status_code == 401 and body(expired)["code"] == "invalid_token"
    assert expired["WWW-Authenticate"] == 'Bearer error="invalid_token"'
    assert "refresh token" in body(expired)["message"]
    renewed = _refresh(tokens["refresh_token"], app_id)
    assert renewed.status_code == 200
    assert Api(renewed.json()["access_token"]).get("/me").status_code == 200


def test_the_token_endpoint_takes_a_form_not_json(alice_browser, app_id):
    tokens = grant(alice_browser, app_id, "read")
    form = {"grant_type": "refresh_token", "refresh_token": tokens["refresh_token"]}
    as_json = Client().post("/oauth/token/", {**form, "client_id": app_id}, "application/json")
    assert as_json.status_code == 400 and as_json.json()["error"] == "unsupported_grant_type"
    # Nothing was used up: the same refresh token, form-encoded, works.
    assert _refresh(tokens["refresh_token"], app_id).status_code == 200


def test_it_refreshes_and_the_old_token_stops(alice_browser, app_id):
    first = grant(alice_browser, app_id, "read")
    refreshed = _refresh(first["refresh_token"], app_id)
    assert refreshed.status_code == 200, refreshed.content
    second = refreshed.json()
    assert second["access_token"] != first["access_token"]
    assert Api(second["access_token"]).get("/me").status_code == 200
    assert body(Api(first["access_token"]).get("/me"))["code"] == "invalid_token"


def test_it_ends_a_token_the_app_revokes(alice_browser, app_id):
    token = grant(alice_browser, app_id, "read")["access_token"]
    revoked = Client().post("/oauth/revoke/", {"token": token, "client_id": app_id})
    assert revoked.status_code == 200
    assert Api(token).get("/me").status_code == 401


def test_it_lists_the_app_in_settings_and_revokes_it_there(alice_browser, app_id):
    tokens = grant(alice_browser, app_id, "read play")
    page = alice_browser.get("/settings/").content.decode()
    assert "Pocket Gin" in page and 'data-scope="play"' in page
    from oauth2_provider.models import Application

    pk = Application.objects.get(client_id=app_id).pk
    alice_browser.post(f"/settings/apps/{pk}/revoke")
    assert Api(tokens["access_token"]).get("/me").status_code == 401
    refresh = _refresh(tokens["refresh_token"], app_id)
    assert refresh.status_code == 400
    assert "Pocket Gin" not in alice_browser.get("/settings/").content.decode()


def test_it_needs_pkce(alice_browser, app_id):
    query = authorize_query(app_id, "x" * 43, "read", REDIRECT)
    without = query.replace("code_challenge=", "ignored=")
    page = alice_browser.get("/oauth/authorize/?" + without)
    # The toolkit sends the refusal back to the app: no code.
    assert page.status_code == 302 and "error=invalid_request" in page["Location"]
    plain = alice_browser.get("/oauth/authorize/?" + query.replace("S256", "plain"))
    assert b"S256" in plain.content and b"authorizationForm" not in plain.content


def test_it_refuses_a_code_without_its_verifier(alice_browser, app_id):
    verifier, challenge = pkce()
    url = "/oauth/authorize/?" + authorize_query(app_id, challenge, "read", REDIRECT)
    allowed = alice_browser.post(
        url,
        {
            "allow": "1",
            "redirect_uri": REDIRECT,
            "scope": "read",
            "client_id": app_id,
            "state": "s-123",
            "response_type": "code",
            "code_challenge": challenge,
            "code_challenge_method": "S256",
        },
    )
    exchange = {
        "grant_type": "authorization_code",
        "code": code_from(allowed["Location"]),
        "redirect_uri": REDIRECT,
        "client_id": app_id,
        "code_verifier": pkce()[0],
    }
    assert Client().post("/oauth/token/", exchange).status_code == 400


def test_it_sends_a_signed_out_player_to_sign_in_and_back(app_id):
    _verifier, challenge = pkce()
    url = "/oauth/authorize/?" + authorize_query(app_id, challenge, "read", REDIRECT)
    answer = Client().get(url)
    assert answer.status_code == 302
    assert answer["Location"].startswith("/accounts/login/?next=")


def test_it_accepts_any_loopback_port(alice_browser, app_id):
    tokens = grant(alice_browser, app_id, "read", redirect="http://127.0.0.1:54321/callback")
    assert tokens["access_token"].startswith("gina_")


def test_it_registers_only_well_formed_apps(db):
    from django.core.management.base import CommandError

    with pytest.raises(CommandError):
        register("Bad", redirect="ftp://example.com/x")


def test_it_counts_an_app_against_the_players_one_limit(alice_browser, app_id, alice, settings):
    from django.core.cache import cache

    from tests.api.conftest import token_for

    app = Api(grant(alice_browser, app_id, "read")["access_token"])
    cache.clear()
    settings.API_RATE_LIMIT = 3
    personal = Api(token_for(alice))
    assert personal.get("/me").status_code == 200
    assert personal.get("/me").status_code == 200
    assert app.get("/me").status_code == 200
    limited = app.get("/me")
    assert limited.status_code == 429 and body(limited)["code"] == "rate_limited"


def test_it_asks_in_german_in_a_german_browser(alice_browser, app_id):
    _verifier, challenge = pkce()
    url = "/oauth/authorize/?" + authorize_query(app_id, challenge, "read play", REDIRECT)
    page = alice_browser.get(url, headers={"accept-language": "de"}).content.decode()
    assert "Darf „Pocket Gin“ dein Konto nutzen?" in page
    assert "an deinen Tischen spielen" in page and "Zulassen" in page
    # Only what was asked for.
    assert "in der Lobby für dich handeln" not in page


def test_it_ends_the_sign_in_when_a_refresh_token_is_used_twice(alice_browser, app_id):
    first = grant(alice_browser, app_id, "read")
    second = _refresh(first["refresh_token"], app_id).json()
    # The old refresh token again: taken as stolen, every token of this sign-in ends.
    assert _refresh(first["refresh_token"], app_id).status_code == 400
    assert Api(second["access_token"]).get("/me").status_code == 401
    assert _refresh(second["refresh_token"], app_id).status_code == 400


def test_the_schema_tells_apps_where_tokens_come_from(alice_browser):
    schema = alice_browser.get("/api/v1/openapi.json").json()
    bearer = schema["components"]["securitySchemes"]["TokenAuth"]
    assert bearer["scheme"] == "bearer" and "/oauth/authorize/" in bearer["description"]


def test_it_publishes_where_its_endpoints_are(db):
    meta = Client().get("/.well-known/oauth-authorization-server").json()
    assert meta["authorization_endpoint"].endswith("/oauth/authorize/")
    assert meta["token_endpoint"].endswith("/oauth/token/")
    assert meta["revocation_endpoint"].endswith("/oauth/revoke/")
    assert meta["code_challenge_methods_supported"] == ["S256"]
    assert {"read", "play", "lobby"} <= set(meta["scopes_supported"])
    # Only what an app can use: an OAuth library that reads this never tries another grant,
    # nor a client secret (every app is a public client).
    assert meta["grant_types_supported"] == ["authorization_code", "refresh_token"]
    assert meta["token_endpoint_auth_methods_supported"] == ["none"]
    assert meta["revocation_endpoint_auth_methods_supported"] == ["none"]
