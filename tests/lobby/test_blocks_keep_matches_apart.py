"""A block also keeps each side out of the other's seeks and matches, as if they did not exist:
the seek by its id in the API, the lists of matches in progress (API and lobby page), and
watching the match (API, table page, table socket). Bob blocked Alice; Carol stands for
everyone else (issue 28, item 5)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest
from django.test import Client

from games.web.table_socket import CLOSE_NOT_FOUND
from lobby import services
from lobby.accounts import tokens
from tests.games.live_helpers import call, cookie_of, lobby_match, signed_in, socket
from tests.lobby.lobby_helpers import online

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.http import HttpResponse

    from games.models import Match


def _api(user: User, path: str) -> HttpResponse:
    secret = tokens.create(user, "t")[1]
    return Client().get(f"/api/v1{path}", headers={"Authorization": f"Bearer {secret}"})


@pytest.fixture
def bobs_match(alice: User, bob: User, carol: User, django_user_model) -> Match:
    """Bob blocked Alice, then sat down to a lobby match with Dave."""
    dave = django_user_model.objects.create_user("dave", password="x")
    online(alice, bob, carol, dave)
    services.block(bob, alice)
    return lobby_match(bob, dave)


@pytest.mark.django_db
@pytest.mark.parametrize(("blocker", "blocked"), [("bob", "alice"), ("alice", "bob")])
def test_a_seek_by_its_id_is_not_found_across_a_block(alice, bob, carol, blocker, blocked):
    users = {"alice": alice, "bob": bob, "carol": carol}
    online(alice, bob, carol)
    services.block(users["bob"], users["alice"])
    seek = services.post_seek(users[blocker], "standard", 100)
    response = _api(users[blocked], f"/seeks/{seek.pk}")
    assert response.status_code == 404
    assert json.loads(response.content)["code"] == "not_found"
    assert _api(users["carol"], f"/seeks/{seek.pk}").status_code == 200


@pytest.mark.django_db
def test_the_lists_of_matches_leave_out_the_blockers(bobs_match: Match, alice, carol):
    def listed(user: User) -> set[str]:
        response = _api(user, "/lobby/matches")
        assert response.status_code == 200
        return {m["id"] for m in json.loads(response.content)}

    def on_lobby_page(user: User) -> bool:
        html = signed_in(user).get("/lobby/").content.decode()
        return f'data-match="{bobs_match.public_id}"' in html

    assert bobs_match.public_id in listed(carol) and on_lobby_page(carol)
    assert bobs_match.public_id not in listed(alice)
    assert not on_lobby_page(alice)


@pytest.mark.django_db
def test_the_blocked_player_cannot_watch_in_the_api_or_on_the_table_page(
    bobs_match: Match, alice, carol
):
    path = f"/matches/{bobs_match.public_id}"
    assert _api(carol, path).status_code == 200
    refused = _api(alice, path)
    assert refused.status_code == 404 and json.loads(refused.content)["code"] == "not_found"
    page = f"/games/{bobs_match.public_id}/"
    assert signed_in(carol).get(page).status_code == 200
    assert signed_in(alice).get(page).status_code == 404


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_blocked_players_table_socket_closes_as_for_nobody(
    bobs_match: Match, alice, carol
):
    watcher = socket(bobs_match, await call(lambda: cookie_of(signed_in(carol))))
    assert (await watcher.connect())[0]
    await watcher.disconnect()
    refused = socket(bobs_match, await call(lambda: cookie_of(signed_in(alice))))
    connected, code = await refused.connect()
    assert not connected and code == CLOSE_NOT_FOUND
    await refused.disconnect()
