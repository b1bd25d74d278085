"""A browser player and an API client play a whole match against each other through the lobby:
the API challenges, the browser accepts on the lobby page, then they move in turn, the browser
through the table's form posts with its match socket open, the API with JSON."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse

from games.engine import legal_actions, player_view
from games.models import Match
from games.state_cache import load_state
from ginclient.api import move_body
from tests.games.live_helpers import cookie_of, frames, opening_frames, signed_in, socket
from tests.games.test_leak import form_of

from .conftest import Api, body, token_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

MAX_ACTIONS = 1500


def pick(view: dict[str, Any]) -> dict[str, Any]:
    """End the hand when allowed, else shed the discard that leaves the least deadwood."""
    legal = view["legal_actions"]
    for kind in ("big_gin", "gin", "knock"):
        for action in legal:
            if action["type"] == kind:
                return action
    after = view.get("deadwood_after_discard") or {}
    discards = [a for a in legal if a["type"] == "discard"]
    if discards and after:
        return min(discards, key=lambda a: after.get(a["card"], 99))
    draws = [a for a in legal if a["type"] == "draw" and a.get("from") == "stock"]
    return draws[0] if draws else legal[0]


def _browser_move(client: Client, match: Match) -> int:
    match.refresh_from_db()
    view = player_view(load_state(match), 1)
    action = pick(view)
    url = reverse("games:act", args=[match.public_id])
    data = {**form_of(action), "version": match.version}
    response = client.post(url, data, HTTP_HX_REQUEST="true")
    assert response.status_code == 200, response.content[:300]
    match.refresh_from_db()
    return match.version


def _api_move(api: Api, public_id: str) -> int:
    detail = body(api.get(f"/matches/{public_id}"))
    view = detail["view"]
    # As ginclient sends it: a seed for the deal gets a random one of the client's own.
    response = api.post(f"/matches/{public_id}/actions", move_body(view, pick(view)))
    assert response.status_code == 200, response.content
    return int(body(response)["version"])


async def test_a_browser_player_and_an_api_client_play_a_whole_match(alice, bob):
    alice_api = Api(await sync_to_async(token_for)(alice))
    browser = await sync_to_async(signed_in)(bob)
    lobby = await sync_to_async(browser.get)(reverse("lobby:lobby"))
    assert lobby.status_code == 200  # bob is in the lobby now

    made = await sync_to_async(alice_api.post)("/challenges", {"to": "bob", "target": 50})
    assert made.status_code == 201
    accept = reverse("lobby:accept_challenge", args=[body(made)["id"]])
    answer = await sync_to_async(browser.post)(accept, HTTP_HX_REQUEST="true")
    assert answer.status_code == 204
    public_id = answer["HX-Redirect"].rstrip("/").split("/")[-1]
    match = await sync_to_async(Match.objects.get)(public_id=public_id)

    comm = socket(match, cookie_of(browser))
    assert (await comm.connect())[0]
    try:
        await opening_frames(comm)
        pushed_after_api_move = api_moves = 0
        for _ in range(MAX_ACTIONS):
            await sync_to_async(match.refresh_from_db)()
            state = await sync_to_async(load_state)(match)
            if state.phase == "match_over":
                break
            if state.to_act == 1 or legal_actions(state, 1) == [{"type": "seed"}]:
                await sync_to_async(_browser_move)(browser, match)
            else:  # seat 0, its seed, or a hand just over: the API deals the next one
                version = await sync_to_async(_api_move)(alice_api, public_id)
                api_moves += 1
                pushed = await frames(comm, quiet=0.05, until=f'data-version="{version}"')
                if any(f'data-version="{version}"' in text for text in pushed):
                    pushed_after_api_move += 1
        await sync_to_async(match.refresh_from_db)()
        assert match.status == Match.Status.FINISHED
        final = body(await sync_to_async(alice_api.get)(f"/matches/{public_id}"))
        assert final["status"] == "finished" and final["view"]["settlement"] is not None
        assert final["version"] == match.version
        # The deal is random: a knock can end the 50-point match within a few moves.
        heard = "the browser's socket heard of the API's moves"
        assert api_moves and pushed_after_api_move >= max(1, api_moves // 2), heard
    finally:
        await comm.disconnect()
