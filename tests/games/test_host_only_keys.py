"""A key the site issued, planted in someone else's browser (issue 39, finding 2). A review took
a guest key from one ``POST /games/lesson/``, set it in a victim's browser, and saw the victim's
ten cards. On a site served over HTTPS the key cookies are named ``__Host-...``, which no
other subdomain and no plain-HTTP response can set (browsers refuse them), and a key in a
plain-named cookie opens nothing there: not the page, its htmx regions nor the table socket. A
site without HTTPS (development, the tests) keeps the plain names, and reads no other."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse

from games import access
from games.engine import player_view
from games.models import Match, PrivateTable
from games.state_cache import load_state
from ginsite.asgi import application
from tests.sockets import Socket

from .conftest import assert_no_leak, url
from .lesson_helpers import begin

HTMX = {"HTTP_HX_REQUEST": "true"}
HTTPS_SITES = [
    pytest.param({"SECURE_COOKIES": True}, id="secure-cookies"),
    pytest.param({"SECURE_PROXY_SSL_HEADER": ("HTTP_X_FORWARDED_PROTO", "https")}, id="tls-proxy"),
]
GUEST = "__Host-gin_guest"


@pytest.fixture(params=HTTPS_SITES)
def https_site(request: pytest.FixtureRequest, settings: Any) -> None:
    for name, value in request.param.items():
        setattr(settings, name, value)


def _browser() -> Client:
    """A browser on the site's https pages (behind the proxy, which says so)."""
    return Client(headers={"X-Forwarded-Proto": "https"})


def _begin(client: Client) -> Match:
    response = client.post("/games/lesson/", secure=True)
    assert response.status_code == 302
    return Match.objects.get(public_id=response["Location"].strip("/").split("/")[-1])


def _sees_table(client: Client, match: Match) -> list[int]:
    """The table's page and one of its htmx regions, as ``client`` gets them."""
    page = client.get(url(match, "table"), secure=True)
    region = client.get(url(match, "table"), secure=True, **HTMX)
    return [page.status_code, region.status_code]


def _holding(name: str, value: str) -> Client:
    client = _browser()
    client.cookies[name] = value
    return client


def _cookie_is_host_only(cookie: Any) -> None:
    """What a browser asks of a ``__Host-`` cookie before it keeps it."""
    assert cookie["secure"] and cookie["path"] == "/" and not cookie["domain"]
    assert cookie["httponly"] and cookie["samesite"] == "Lax"


@pytest.mark.django_db
def test_it_keeps_every_key_in_a_host_only_cookie_on_a_site_served_over_https(
    https_site: None,
) -> None:
    browser = _browser()
    lesson = browser.post("/games/lesson/", secure=True)
    _cookie_is_host_only(lesson.cookies[GUEST])
    table = browser.post(
        reverse("games:private_new"),
        {"name": "Hal", "preset": "standard", "target": 100},
        secure=True,
    )
    seat = "__Host-" + access.seat_cookie(PrivateTable.objects.get())
    _cookie_is_host_only(table.cookies[seat])
    local = browser.post(
        "/games/local/",
        {"first": "Ann", "second": "Ben", "preset": "standard", "target": "100"},
        secure=True,
    )
    _cookie_is_host_only(local.cookies["__Host-gin_local"])
    for response in (lesson, table, local):
        assert not [name for name in response.cookies if name.startswith("gin_")]


@pytest.mark.django_db
def test_a_planted_key_shows_the_planter_nothing_on_a_site_served_over_https(
    https_site: None,
) -> None:
    """The review's attack: the planter's key, set in the victim's browser under the plain name
    (what another subdomain or a plain-HTTP answer can set), is not read; the victim's lesson
    gets a key of its own, which the planter does not have."""
    planter = _browser()
    _begin(planter)
    planted = planter.cookies[GUEST].value
    victim = _holding("gin_guest", planted)
    match = _begin(victim)
    assert victim.cookies[GUEST].value != planted
    assert _sees_table(victim, match) == [200, 200]
    assert _sees_table(planter, match) == [404, 404]
    assert _sees_table(_holding(GUEST, planted), match) == [404, 404]
    hand = player_view(load_state(match), 0)["hand"]
    assert_no_leak(planter.get(url(match, "table"), secure=True).content.decode(), hand)


@pytest.mark.django_db
@pytest.mark.parametrize("kind", ["guest", "seat", "owner"])
def test_a_key_in_a_plain_named_cookie_opens_nothing_on_a_site_served_over_https(
    https_site: None, kind: str
) -> None:
    """Even the right key: on that site only the prefixed cookie is read, so a cookie someone
    else could set holds no key."""
    owner = _browser()
    if kind == "guest":
        page, name = url(_begin(owner), "table"), "gin_guest"
    elif kind == "seat":
        form = {"name": "Hal", "preset": "standard", "target": 100}
        owner.post(reverse("games:private_new"), form, secure=True)
        table = PrivateTable.objects.get()
        page, name = url(table.matches.get(), "table"), access.seat_cookie(table)
    else:
        form = {"first": "Ann", "second": "Ben", "preset": "standard", "target": "100"}
        page, name = owner.post("/games/local/", form, secure=True)["Location"], "gin_local"
    assert owner.get(page, secure=True).status_code == 200
    copy = _holding(name, owner.cookies["__Host-" + name].value)
    assert copy.get(page, secure=True).status_code in (302, 404)  # sent to sign in, or nobody


@pytest.mark.django_db
def test_a_site_without_https_keeps_the_plain_names_and_reads_no_other() -> None:
    browser = Client()
    match = begin(browser)
    cookie = browser.cookies["gin_guest"]
    assert not cookie["secure"] and GUEST not in browser.cookies
    assert browser.get(url(match, "table")).status_code == 200
    prefixed = Client()
    prefixed.cookies[GUEST] = cookie.value
    assert prefixed.get(url(match, "table")).status_code == 404


def _table_socket(match: Match, cookie: str, proxied: bool) -> Socket:
    origin = b"https://testserver" if proxied else b"http://testserver"
    headers = [(b"origin", origin), (b"host", b"testserver"), (b"cookie", cookie.encode())]
    if proxied:
        headers.append((b"x-forwarded-proto", b"https"))
    return Socket(application, f"/ws/games/{match.public_id}/", headers=headers)


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_table_socket_reads_only_the_prefixed_cookie_on_a_site_served_over_https(
    https_site: None, settings: Any
) -> None:
    browser = _browser()
    match = await sync_to_async(_begin)(browser)
    value = browser.cookies[GUEST].value
    proxied = settings.SECURE_PROXY_SSL_HEADER is not None
    planted = _table_socket(match, f"gin_guest={value}", proxied)
    assert not (await planted.connect())[0]
    await planted.disconnect()
    held = _table_socket(match, f"{GUEST}={value}", proxied)
    assert (await held.connect())[0]
    await held.disconnect()
