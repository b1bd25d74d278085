"""Where the consent page may send a code (RFC 8252): a phone app's own private-use scheme
(``com.example.gin:/oauth/callback``) as well as https and a loopback; another app's scheme, a
scheme it never registered, and plain http to anything but a loopback are refused, and the
browser is sent nowhere."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management.base import CommandError
from django.test import Client
from oauth2_provider.models import Application

from tests.api.conftest import Api, body

from .conftest import authorize_query, code_from, grant, pkce, register

pytestmark = pytest.mark.django_db

PHONE = "com.example.gin:/oauth/callback"


@pytest.fixture
def alice_browser(alice) -> Client:  # type: ignore[no-untyped-def]
    browser = Client()
    browser.force_login(alice)
    return browser


def _consent(browser: Client, client_id: str, redirect: str) -> Any:
    _verifier, challenge = pkce()
    query = authorize_query(client_id, challenge, "read", redirect)
    return browser.get("/oauth/authorize/?" + query)


def test_a_phone_app_gets_its_code_on_its_own_scheme(alice_browser):
    client_id = register("Pocket Gin", redirect=PHONE)
    verifier, challenge = pkce()
    url = "/oauth/authorize/?" + authorize_query(client_id, challenge, "read", PHONE)
    assert alice_browser.get(url).status_code == 200
    allowed = alice_browser.post(
        url,
        {
            "allow": "1",
            "redirect_uri": PHONE,
            "scope": "read",
            "client_id": client_id,
            "state": "s-123",
            "response_type": "code",
            "code_challenge": challenge,
            "code_challenge_method": "S256",
        },
    )
    assert allowed.status_code == 302
    assert allowed["Location"].startswith(PHONE + "?")
    answer = Client().post(
        "/oauth/token/",
        {
            "grant_type": "authorization_code",
            "code": code_from(allowed["Location"]),
            "redirect_uri": PHONE,
            "client_id": client_id,
            "code_verifier": verifier,
        },
    )
    assert answer.status_code == 200
    me = Api(answer.json()["access_token"]).get("/me")
    assert body(me)["username"] == "alice"


def test_the_grant_helper_works_for_a_phone_app_too(alice_browser):
    client_id = register("Pocket Gin", redirect=PHONE)
    assert grant(alice_browser, client_id, "read", redirect=PHONE)["access_token"]


@pytest.mark.parametrize(
    "foreign",
    [
        "com.evil.app:/oauth/callback",  # another app's scheme
        "com.example.gin.evil:/oauth/callback",
        "com.example.gin:/other",  # its scheme, not its URI
        "https://pocketgin.example/oauth/callback",
        "http://127.0.0.1/callback",
    ],
)
def test_it_sends_no_code_where_the_app_did_not_register(alice_browser, foreign):
    client_id = register("Pocket Gin", redirect=PHONE)
    answer = _consent(alice_browser, client_id, foreign)
    assert answer.status_code == 400
    assert "Location" not in answer
    assert "Let “Pocket Gin” use your account?" not in answer.content.decode()


@pytest.mark.parametrize(
    "wrong",
    [
        "http://pocketgin.example/oauth/callback",  # plain http across a network
        "http://localhost/callback",  # a name, which may resolve elsewhere (RFC 8252 8.3)
        "http://10.0.0.7/callback",
        "gin:/oauth/callback",  # a scheme that names no domain
        "javascript:alert(1)",
        "data:text/html,<script>alert(1)</script>",
        "file:///etc/passwd",
        "vbscript:msgbox(1)",
        "com.example.gin://oauth/callback",  # a private-use scheme has no host
        "com.example.gin:oauth/callback",
        "https://pocketgin.example/cb#part",
        "https://user:pw@pocketgin.example/cb",
        "ftp://pocketgin.example/x",
    ],
)
def test_it_registers_no_unsafe_redirect(db, wrong):
    with pytest.raises(CommandError):
        register("Risky", redirect=wrong)
    assert not Application.objects.filter(name="Risky").exists()


def test_a_scheme_another_app_registered_is_refused(db):
    register("Pocket Gin", redirect=PHONE)
    for taken in (PHONE, "com.example.gin:/other/path", "COM.Example.Gin:/oauth/callback"):
        with pytest.raises(CommandError, match="is 'Pocket Gin'"):
            register("Pocket Gin Pro", redirect=taken)
    assert list(Application.objects.values_list("name", flat=True)) == ["Pocket Gin"]
    # A scheme that only begins like it is another domain's: com.example.gin.pro is not taken.
    register("Pocket Gin Pro", redirect="com.example.gin.pro:/oauth/callback")


def test_it_registers_the_three_kinds(db):
    for name, uri in (
        ("Web", "https://pocketgin.example/oauth/done"),
        ("Desktop", "http://[::1]/callback"),
        ("Phone", "com.example.gin:/oauth/callback"),
    ):
        register(name, redirect=uri)
    assert Application.objects.count() == 3


def test_the_consent_page_refuses_an_http_uri_stored_through_the_admin(alice_browser):
    # The admin's form checks only the scheme: an http URI to any host can be stored there.
    app = Application.objects.create(
        name="Stored by hand",
        client_type=Application.CLIENT_PUBLIC,
        authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE,
        redirect_uris="http://pocketgin.example/cb",
        algorithm="",
    )
    answer = _consent(alice_browser, app.client_id, "http://pocketgin.example/cb")
    assert answer.status_code == 400 and "Location" not in answer
    assert "plain http only to a loopback address" in answer.content.decode()
    # Nor does leaving out redirect_uri (the app's first one is used then) get around it.
    _verifier, challenge = pkce()
    query = authorize_query(app.client_id, challenge, "read", "").replace("redirect_uri=&", "")
    assert alice_browser.get("/oauth/authorize/?" + query).status_code == 400


@pytest.mark.parametrize(
    "stored", ["javascript:alert(document.cookie)", "data:text/html,<b>hi</b>", "file:///etc/x"]
)
def test_the_consent_page_sends_nobody_to_a_script_stored_by_hand(alice_browser, stored):
    app = Application.objects.create(
        name="Stored by hand",
        client_type=Application.CLIENT_PUBLIC,
        authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE,
        redirect_uris=stored,
        algorithm="",
    )
    answer = _consent(alice_browser, app.client_id, stored)
    assert answer.status_code == 400 and "Location" not in answer
    assert "use your account?" not in answer.content.decode()


def test_a_private_scheme_is_for_public_clients_only(alice_browser):
    app = Application.objects.create(
        name="Confidential",
        client_type=Application.CLIENT_CONFIDENTIAL,
        authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE,
        redirect_uris=PHONE,
        algorithm="",
    )
    answer = _consent(alice_browser, app.client_id, PHONE)
    assert answer.status_code == 400 and "Location" not in answer
