"""Only keys the site issued open anything (issue 28, item 4): a guest key (``gin_guest``) or
a device's pass-and-play key (``gin_local``) the browser made up, or was made to hold, is
replaced by a fresh one and opens nothing; both are replaced at sign-up and sign-out, after
which a copy of the old one opens nothing, and a table socket opened with it closes (4401)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from django.test import Client

from games import access
from games.access import GUEST_COOKIE, OWNER_COOKIE
from games.models import Match, Seat
from games.web.table_socket import CLOSE_UNAUTHENTICATED
from tests.api.streams import closed_code

from .conftest import url
from .live_helpers import call, socket

if TYPE_CHECKING:
    from django.contrib.auth.models import User

CHOICE = {"preset": "standard", "target": "100", "level": "medium"}
PAIR = {"first": "Ann", "second": "Ben", "preset": "standard", "target": "100"}
PASSWORD = "a long pass phrase for a guest"
# Anything, and a key of the right shape made elsewhere.
PLANTED = [pytest.param("a", id="a"), pytest.param(access.new_key(), id="made-up-key")]


def _holding(name: str, value: str) -> Client:
    client = Client()
    client.cookies[name] = value
    return client


def _bea_match(client: Client) -> Match:
    assert client.post("/games/new/", CHOICE).status_code == 302
    return Match.objects.filter(kind=Match.Kind.BEA).latest("pk")


def _pass_and_play(client: Client) -> str:
    response = client.post("/games/local/", PAIR)
    assert response.status_code == 302
    return response["Location"]


@pytest.mark.django_db
@pytest.mark.parametrize("planted", PLANTED)
def test_a_guest_key_the_site_did_not_issue_is_replaced_and_opens_nothing(planted: str):
    victim = _holding(GUEST_COOKIE, planted)
    match = _bea_match(victim)
    assert victim.cookies[GUEST_COOKIE].value != planted
    assert not Seat.objects.filter(guest_key_hash=access.hash_key(planted)).exists()
    assert victim.get(url(match, "table")).status_code == 200
    assert _holding(GUEST_COOKIE, planted).get(url(match, "table")).status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize("planted", PLANTED)
def test_an_owner_key_the_site_did_not_issue_is_replaced_and_opens_nothing(planted: str):
    victim = _holding(OWNER_COOKIE, planted)
    page = _pass_and_play(victim)
    assert victim.cookies[OWNER_COOKIE].value != planted
    assert victim.get(page).status_code == 200
    assert _holding(OWNER_COOKIE, planted).get(page).status_code == 404


def _sign_up(client: Client) -> None:
    form = {"username": "dora", "display_name": "Dora", "email": "dora@example.com"}
    form["password1"] = PASSWORD
    response = client.post("/accounts/signup/", {**form, "password2": PASSWORD})
    assert response.status_code == 302, response.content


def _sign_in_and_out(client: Client, user: User) -> None:
    client.force_login(user)
    assert client.post("/accounts/logout/").status_code == 302


@pytest.mark.django_db
@pytest.mark.parametrize("how", ["sign-up", "sign-out"])
def test_both_keys_are_replaced_and_a_copy_of_the_old_ones_opens_nothing(how: str, alice: User):
    browser = Client()
    bea = _bea_match(browser)
    page = _pass_and_play(browser)
    copies = {name: browser.cookies[name].value for name in (GUEST_COOKIE, OWNER_COOKIE)}
    if how == "sign-up":
        _sign_up(browser)
    else:
        _sign_in_and_out(browser, alice)
    for name, copy in copies.items():
        assert browser.cookies[name].value not in ("", copy)
    # The browser keeps what it had: its pass-and-play match, and its match against Bea as a
    # guest (after signing out) or as the new account (after signing up, as before).
    assert browser.get(page).status_code == 200
    assert browser.get(url(bea, "table")).status_code == 200
    assert _holding(OWNER_COOKIE, copies[OWNER_COOKIE]).get(page).status_code == 404
    assert _holding(GUEST_COOKIE, copies[GUEST_COOKIE]).get(url(bea, "table")).status_code in (
        302,  # signed up: the match is the account's now, and the copy is sent to sign in
        404,
    )
    assert not Seat.objects.filter(guest_key_hash=access.hash_key(copies[GUEST_COOKIE])).exists()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.parametrize("how", ["sign-up", "sign-out"])
async def test_a_table_socket_opened_with_the_old_guest_key_closes(how: str, alice: User):
    browser = Client()
    bea = await call(_bea_match, browser)
    comm = socket(bea, f"{GUEST_COOKIE}={browser.cookies[GUEST_COOKIE].value}".encode())
    assert (await comm.connect())[0]
    try:
        if how == "sign-up":
            await call(_sign_up, browser)
        else:
            await call(_sign_in_and_out, browser, alice)
        assert await closed_code(comm) == CLOSE_UNAUTHENTICATED
    finally:
        await comm.disconnect()
