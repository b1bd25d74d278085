"""The pages' extra requests get the API's budget (``API_RATE_LIMIT`` every
``API_RATE_WINDOW`` seconds, one count for a player's pages and API together): an htmx hint
request over it is a 429 whose message the page shows, in the reader's language; a socket's
``refresh`` frame over it gets an error frame and no render, and the socket stays open
(issue 28, item 8)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest
from django.core.cache import cache
from django.test import Client

from lobby.accounts import tokens

from .conftest import start, url
from .live_helpers import call, cookie_of, frames, opening_frames, signed_in, socket

if TYPE_CHECKING:
    from django.contrib.auth.models import User

BUDGET = 3
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def small_budget(settings):
    settings.API_RATE_LIMIT = BUDGET
    settings.API_RATE_WINDOW = 3600  # one window for the whole test, however slow the machine
    cache.clear()
    yield
    cache.clear()


def _hint(client: Client, match) -> object:
    return client.get(url(match, "hint"), **HTMX)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "says"), [("en", "Too many requests"), ("de", "Zu viele Anfragen")]
)
def test_a_hint_over_the_budget_is_a_429_the_page_shows(alice: User, language: str, says: str):
    match = start(alice)
    client = signed_in(alice)
    client.cookies["django_language"] = language
    for _n in range(BUDGET):
        assert _hint(client, match).status_code == 200
    refused = _hint(client, match)
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) > 0
    html = refused.content.decode()
    assert 'id="notice"' in html and 'hx-swap-oob="true"' in html and says in html
    # The page lets htmx swap a 429 in, as it does a 409.
    page = client.get(url(match, "table")).content.decode()
    assert "(400|403|409|422|429)" in page


@pytest.mark.django_db
def test_the_pages_and_the_api_share_one_budget(alice: User):
    match = start(alice)
    client = signed_in(alice)
    for _n in range(BUDGET):
        assert _hint(client, match).status_code == 200
    secret = tokens.create(alice, "t")[1]
    response = Client().get(
        f"/api/v1/matches/{match.public_id}", headers={"Authorization": f"Bearer {secret}"}
    )
    assert response.status_code == 429


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_refresh_over_the_budget_gets_an_error_frame_and_no_render(alice: User):
    match = await call(start, alice)
    comm = socket(match, await call(lambda: cookie_of(signed_in(alice))))
    assert (await comm.connect())[0]
    try:
        await opening_frames(comm)
        for _n in range(BUDGET):
            await comm.send_json_to({"type": "refresh"})
            assert any('id="table-version"' in f for f in await frames(comm, until="table-version"))
        await comm.send_json_to({"type": "refresh"})
        refused = json.loads(await comm.receive_from())
        assert refused["type"] == "error" and "Too many" in refused["message"]
        assert not any("table-version" in f for f in await frames(comm))
        # Still open: it answers a ping.
        await comm.send_json_to({"type": "ping"})
        assert json.loads(await comm.receive_from())["type"] == "pong"
    finally:
        await comm.disconnect()
