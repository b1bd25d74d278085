"""``python -m ginclient login`` against a running site: the client listens on a loopback port,
the player's browser signs in and allows it, the client exchanges the code and keeps the
tokens, and later commands use them, renewing an expired one."""

from __future__ import annotations

import json
import urllib.request
from urllib.parse import urlsplit

import pytest
from django.test import Client

from ginclient import login as signin
from ginclient.cli import main
from lobby.events import stream as event_stream
from tests.browser.live_asgi import serve
from tests.oauth.conftest import register

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def server(monkeypatch, settings, tmp_path) -> str:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(event_stream, "KEEPALIVE_SECONDS", 1.0)
    settings.API_RATE_LIMIT = 100_000
    # The tokens are kept here, not in the home directory of whoever runs the tests.
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    register("ginclient", "http://127.0.0.1/callback", client_id="ginclient")
    return serve()


def browser_of(user, allow: bool = True):  # type: ignore[no-untyped-def]
    """What the player's browser does with the address ginclient prints: the site's consent
    page (signed in already), Allow or Deny, then the redirect to ginclient's listener."""

    def open_browser(url: str) -> None:
        browser = Client()
        browser.force_login(user)
        address = urlsplit(url)
        local = f"{address.path}?{address.query}"
        page = browser.get(local)
        assert page.status_code == 200 and b"ginclient" in page.content
        form = page.context["form"]
        fields = {f.name: f.value() for f in form if f.is_hidden and f.value() is not None}
        answer = browser.post(local, {**fields, **({"allow": "1"} if allow else {})})
        assert answer.status_code == 302
        with urllib.request.urlopen(answer["Location"], timeout=10) as back:
            assert back.status == 200

    return open_browser


def test_it_signs_in_through_the_browser_and_keeps_the_token(server, alice, monkeypatch):
    monkeypatch.setattr("webbrowser.open", browser_of(alice))
    lines: list[str] = []
    assert main(["--server", server, "login"], out=lines.append) == 0
    assert lines[1].startswith(server + "/oauth/authorize/?")
    assert "redirect_uri=http%3A%2F%2F127.0.0.1%3A" in lines[1]
    assert lines[-1].startswith("Signed in as alice (read play lobby)")
    kept = json.loads(signin.store_path().read_text())[server]
    assert kept["access_token"].startswith("gina_")
    assert oct(signin.store_path().stat().st_mode & 0o777) == "0o600"
    # A later command needs no token of its own.
    lines.clear()
    assert main(["--server", server, "me"], out=lines.append) == 0
    assert "(alice)" in lines[0]


def test_it_renews_an_expired_token_with_the_refresh_token(server, alice):
    first = signin.login(server, out=lambda _line: None, open_browser=browser_of(alice))
    data = json.loads(signin.store_path().read_text())
    data[server]["expires_at"] = 0
    signin.store_path().write_text(json.dumps(data))
    lines: list[str] = []
    assert main(["--server", server, "me"], out=lines.append) == 0
    renewed = json.loads(signin.store_path().read_text())[server]
    assert renewed["access_token"] != first["access_token"]
    assert renewed["refresh_token"] != first["refresh_token"]


def test_it_says_so_when_the_player_denies(server, alice):
    with pytest.raises(signin.ApiError) as denied:
        signin.login(server, out=lambda _line: None, open_browser=browser_of(alice, allow=False))
    assert denied.value.code == "access_denied"
    assert not signin.store_path().exists()


def test_it_asks_to_sign_in_again_when_the_app_was_revoked(server, alice):
    from oauth2_provider.models import Application

    from lobby.oauth import access

    signin.login(server, out=lambda _line: None, open_browser=browser_of(alice))
    access.revoke(alice, Application.objects.get(client_id="ginclient").pk)
    lines: list[str] = []
    assert main(["--server", server, "me"], out=lines.append) == 1
    assert "run `python -m ginclient login`" in lines[-1]
