"""Answers for one reader are stored by no cache (issue 39, finding 7): a page with a hand or an
account carried no Cache-Control, so Back after signing out on a shared device showed the
previous player's page (tests/browser/test_back_after_sign_out.py shows it in Chromium).
Every answer that depends on who asks (a session, an API token, a guest's or a seat's key) is
``no-store, private``, through pages, htmx regions and the API; static files and pages asked
for by nobody in particular keep their caching."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games.models import Match
from lobby.accounts import tokens
from tests.games.conftest import ALICE_KNOCKS, BEA_LOOSE, stacked
from tests.games.lesson_helpers import begin
from tests.games.live_helpers import lobby_match

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def _stored_by_no_cache(response: Any) -> bool:
    directives = {d.strip() for d in response.get("Cache-Control", "").split(",")}
    return {"no-store", "private"} <= directives


@pytest.fixture
def alice_client(alice: User) -> Client:
    client = Client()
    client.force_login(alice)
    return client


@pytest.fixture
def table(alice: User, bob: User) -> Match:
    return lobby_match(alice, bob, stacked(ALICE_KNOCKS, BEA_LOOSE, "QC"))


def test_it_keeps_a_signed_in_players_pages_from_every_cache(
    alice_client: Client, table: Match
) -> None:
    for path in ("/", "/lobby/", "/settings/", "/players/alice/", "/players/bob/", "/friends/"):
        response = alice_client.get(path)
        assert response.status_code == 200, path
        assert _stored_by_no_cache(response), path
    page = alice_client.get(reverse("games:table", args=[table.public_id]))
    assert page.status_code == 200 and 'data-code="AS"' in page.content.decode()
    assert _stored_by_no_cache(page)


def test_it_keeps_htmx_regions_and_answers_to_forms_from_every_cache(
    alice_client: Client, table: Match
) -> None:
    region = alice_client.get(reverse("games:table", args=[table.public_id]), **HTMX)
    assert region.status_code == 200 and _stored_by_no_cache(region)
    moved = alice_client.post(
        reverse("games:act", args=[table.public_id]), {"move": "pass", "version": 0}, **HTMX
    )
    assert moved.status_code == 200 and _stored_by_no_cache(moved)


def test_it_keeps_api_answers_from_every_cache(alice: User, table: Match) -> None:
    secret = tokens.create(alice, "cache")[1]
    by_token = Client(headers={"Authorization": f"Bearer {secret}"})
    for path in ("/api/v1/me", f"/api/v1/matches/{table.public_id}", "/api/v1/matches"):
        answer = by_token.get(path)
        assert answer.status_code == 200, path
        assert _stored_by_no_cache(answer), path
    session = Client()
    session.force_login(alice)
    assert _stored_by_no_cache(session.get("/api/v1/me"))
    # A refusal is the asker's too (it says what they may not do).
    assert _stored_by_no_cache(by_token.get("/api/v1/matches/nosuchmatch"))


def test_it_keeps_a_guests_table_and_the_sign_in_from_every_cache(
    client: Client, alice: User, password: str
) -> None:
    match = begin(client)  # a guest's lesson: a key, no account
    assert _stored_by_no_cache(client.get(reverse("games:table", args=[match.public_id])))
    assert _stored_by_no_cache(client.get("/"))  # it offers to go on with that lesson
    signing_in = Client().post("/accounts/login/", {"login": "alice", "password": password})
    assert signing_in.status_code == 302 and _stored_by_no_cache(signing_in)


def test_pages_for_nobody_in_particular_and_static_files_keep_their_caching(
    settings: Any, alice: User
) -> None:
    anonymous = Client()
    for path in ("/", "/how-to-play/", "/players/alice/", "/leaderboards/standard/"):
        response = anonymous.get(path)
        assert response.status_code == 200, path
        assert "no-store" not in response.get("Cache-Control", ""), path
    assert anonymous.get("/sw.js")["Cache-Control"] == "no-cache"
    # WhiteNoise serves the static files (from the finders here, as collectstatic's copies
    # on a site) before any view or this rule: the same for a signed-in player.
    settings.WHITENOISE_USE_FINDERS = True
    settings.WHITENOISE_AUTOREFRESH = True
    signed_in = Client()
    signed_in.force_login(alice)
    for client in (Client(), signed_in):
        static = client.get("/static/css/site.css")
        assert static.status_code == 200
        assert static["Cache-Control"] == "max-age=60, public"
        static.close()
