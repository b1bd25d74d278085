"""An app signs a new player in, as a phone app would: it opens the consent page in Chromium
with a PKCE challenge, the player signs up on the site's own pages and allows the app, the
browser returns to the app's loopback address with a code, and the app exchanges it (with its
verifier) for tokens, calls the API within its scopes, refreshes, and is revoked."""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

import pytest
from playwright.sync_api import Browser, Route, expect

from tests.browser.test_accessibility import serious
from tests.oauth.conftest import authorize_query, pkce, register

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a long and private passphrase"
# The app's loopback listener: its port is the app's own choice, made at run time (RFC 8252).
CALLBACK = "http://127.0.0.1:47321/callback"


def _call(base: str, method: str, path: str, token: str | None = None, form: Any = None) -> Any:
    """An HTTP call as the app makes it: the status and the JSON answer."""
    data = urllib.parse.urlencode(form).encode() if form is not None else None
    request = urllib.request.Request(base + path, data=data, method=method)
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    if method == "POST" and form is None:
        request.add_header("Content-Type", "application/json")
        request.data = b"{}"
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as refused:
        return refused.code, json.loads(refused.read() or b"null")


def test_an_app_signs_up_a_new_player_and_plays_within_its_scopes(browser: Browser, base: str):
    client_id = register("Pocket Gin", "http://127.0.0.1/callback")
    verifier, challenge = pkce()
    authorize = (
        base + "/oauth/authorize/?" + authorize_query(client_id, challenge, "read lobby", CALLBACK)
    )
    context = browser.new_context()
    returned: list[str] = []

    def app_listener(route: Route) -> None:
        returned.append(route.request.url)
        route.fulfill(status=200, body="You can close this window.")

    context.route("http://127.0.0.1:47321/**", app_listener)
    try:
        page = context.new_page()
        page.goto(authorize)
        # Not signed in: the site's own sign-in page, which leads on to sign-up.
        assert "/accounts/login/" in page.url
        page.get_by_role("link", name="Create an account").click()
        page.fill("input[name=username]", "dora")
        page.fill("input[name=display_name]", "Dora")
        page.fill("input[name=email]", "dora@example.com")
        page.fill("input[name=password1]", PASSWORD)
        page.fill("input[name=password2]", PASSWORD)
        page.locator("form button[type=submit]").last.click()
        # Back on the consent page: the app's name and exactly what it asked for.
        expect(page.locator("#oauth-consent-title")).to_contain_text("Pocket Gin")
        assert page.locator("[data-scope]").evaluate_all(
            "els => els.map(e => e.dataset.scope)"
        ) == [
            "read",
            "lobby",
        ]
        assert serious(page) == []
        page.click("#oauth-allow")
        page.wait_for_url(CALLBACK + "?**")
        held = _the_app_plays_within_its_scopes(base, client_id, verifier, returned[-1])
        # Settings lists the app beside the personal tokens, with what it may do; Revoke ends
        # the tokens it holds.
        page.goto(base + "/settings/")
        expect(page.locator("#apps")).to_contain_text("Pocket Gin")
        assert page.locator("#apps [data-scope]").all_inner_texts() == ["read", "lobby"]
        assert serious(page) == []
        page.locator("#apps button", has_text="Revoke").click()
        expect(page.locator("#apps")).to_contain_text("No app can sign in as you.")
        status, gone = _call(base, "GET", "/api/v1/me", held["access_token"])
        assert (status, gone["code"]) == (401, "invalid_token")
        again = {"grant_type": "refresh_token", "refresh_token": held["refresh_token"]}
        status, _refused = _call(
            base, "POST", "/oauth/token/", form={**again, "client_id": client_id}
        )
        assert status == 400
    finally:
        context.close()


def _the_app_plays_within_its_scopes(
    base: str, client_id: str, verifier: str, back: str
) -> dict[str, Any]:
    """The app's side: the code exchanged, the API within its scopes, a refresh; the tokens
    it holds then."""
    query = urllib.parse.parse_qs(urllib.parse.urlsplit(back).query)
    assert query["state"] == ["s-123"]
    exchange = {
        "grant_type": "authorization_code",
        "code": query["code"][0],
        "redirect_uri": CALLBACK,
        "client_id": client_id,
    }
    # Without its verifier the code is worth nothing, and a refused try does not spend it.
    assert _call(base, "POST", "/oauth/token/", form=exchange)[0] == 400
    status, tokens = _call(
        base, "POST", "/oauth/token/", form={**exchange, "code_verifier": verifier}
    )
    assert status == 200, tokens
    access = tokens["access_token"]

    status, me = _call(base, "GET", "/api/v1/me", access)
    assert (status, me["username"]) == (200, "dora")
    # lobby reaches the pool; play was not asked for, so resigning is refused.
    status, joined = _call(base, "POST", "/api/v1/pool", access)
    assert (status, joined["status"]) == (201, "waiting"), joined
    status, refused = _call(base, "POST", "/api/v1/matches/any/resign", access)
    assert (status, refused["code"]) == (403, "insufficient_scope")

    refresh = {"grant_type": "refresh_token", "refresh_token": tokens["refresh_token"]}
    status, renewed = _call(base, "POST", "/oauth/token/", form={**refresh, "client_id": client_id})
    assert status == 200, renewed
    assert _call(base, "GET", "/api/v1/me", access)[0] == 401
    assert _call(base, "GET", "/api/v1/me", renewed["access_token"])[0] == 200

    return renewed  # type: ignore[no-any-return]
