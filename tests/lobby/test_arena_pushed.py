"""The arena page's socket: a match's end reaches every viewer as one push of only what changed
(the rows of the standings that moved, not the whole table), after a first push of everything in
the viewer's own language; nobody's page gets a message per change; a page that missed a push
gets everything again when it asks."""

from __future__ import annotations

import json
import time

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from django.contrib.auth.models import AnonymousUser, User
from django.test import Client
from django.urls import reverse

from lobby.arena import consumers, regions, service
from lobby.routing import websocket_urlpatterns
from tests.lobby.arena_helpers import arena, win
from tests.sockets import Socket

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def _page(public_id: str, user: object, language: str = "en") -> tuple[Socket, dict]:
    socket = Socket(URLRouter(websocket_urlpatterns), f"/ws/arena/{public_id}/")
    socket.scope["user"] = user
    socket.scope["headers"] = [(b"accept-language", language.encode())]
    connected, _code = await socket.connect()
    assert connected
    return socket, await socket.receive_json_from()  # the catch-up push: everything


def _setup(alice: User, bob: User) -> str:
    made = arena()
    service.join(alice, made)
    service.join(bob, made)
    return made.public_id


def _row(push: dict, username: str) -> str:
    rows = push["rows"]["standings"].get("set", {})
    return next(html for html in rows.values() if f'data-player="{username}"' in html)


async def test_a_match_end_is_one_push_per_viewer_of_only_what_changed(
    alice: User, bob: User, carol: User
) -> None:
    public_id = await database_sync_to_async(_setup)(alice, bob)
    watcher, first = await _page(public_id, AnonymousUser(), "de")
    player, _first = await _page(public_id, carol)
    assert first["v"] == 1 and first["full"] is True
    assert "Tabelle" in first["regions"]["arena-standings"]  # German, for the German reader
    assert set(first["rows"]["standings"]["set"]) == set(first["rows"]["standings"]["order"])
    # alice wins: the points, the streak, the next pairing of alice and bob: one push each.
    await database_sync_to_async(win)(alice)
    pushed = await watcher.receive_from()
    change = json.loads(pushed)
    assert change["v"] == 2 and change["full"] is False
    assert "<td data-points>2</td>" in _row(change, "alice")
    assert "arena-standings" not in change["regions"]  # its title and header did not change
    assert len(pushed) < len(json.dumps(first))
    mine = await player.receive_json_from()
    assert mine["v"] == 2 and "<td data-points>2</td>" in _row(mine, "alice")
    assert await watcher.receive_nothing(timeout=1.5)
    # A page that missed a push asks for everything again, and gets it as the next push.
    await watcher.send_to(text_data=json.dumps({"resync": True}))
    again = await watcher.receive_json_from()
    assert again["v"] == 3 and again["full"] is True
    assert "<td data-points>2</td>" in _row(again, "alice")
    await watcher.send_to(text_data="nonsense")
    assert await watcher.receive_nothing(timeout=1.5)
    await watcher.disconnect()
    await player.disconnect()


def _join_with_htmx(user: User, public_id: str) -> str:
    client = Client()
    client.force_login(user)
    answer = client.post(reverse("arena:join", args=[public_id]), HTTP_HX_REQUEST="true")
    assert answer.status_code == 200
    return answer.content.decode()


async def test_the_answer_to_a_button_stays_on_the_page_through_the_push_after_it(
    alice: User, bob: User, carol: User
) -> None:
    """Carol joins: the answer says so, and the push of her new place that follows it a moment
    later (CI saw it land after the answer) leaves that notice on her page."""
    public_id = await database_sync_to_async(_setup)(alice, bob)
    page, first = await _page(public_id, carol)
    assert not any('id="arena-notice"' in html for html in first["regions"].values())
    answer = await database_sync_to_async(_join_with_htmx)(carol, public_id)
    assert 'id="arena-notice"' in answer and "You are in." in answer
    change = await page.receive_json_from()
    assert "You are number 3" in change["regions"]["arena-me"]  # her place, pushed
    # The answer's words stay: nothing pushed replaces them.
    assert not any('id="arena-notice"' in html for html in change["regions"].values())
    await page.disconnect()


async def test_an_unknown_arena_closes_the_socket() -> None:
    socket = Socket(URLRouter(websocket_urlpatterns), "/ws/arena/nope/")
    socket.scope["user"] = AnonymousUser()
    connected, code = await socket.connect()
    assert not connected
    assert code == 4404


async def test_pages_that_push_one_change_at_once_share_one_render(
    alice: User, bob: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Five anonymous pages in one language push the same change together: the process renders
    it once for all of them (a busy arena's pages took every thread rendering it again)."""
    public_id = await database_sync_to_async(_setup)(alice, bob)
    pages = [(await _page(public_id, AnonymousUser()))[0] for _ in range(5)]
    renders: list[str] = []
    snapshot = regions.snapshot

    def slow_snapshot(*args: object, **kwargs: object) -> dict:
        renders.append("render")
        time.sleep(0.5)  # long enough for every page's push to come while it runs
        return snapshot(*args, **kwargs)

    monkeypatch.setattr(regions, "snapshot", slow_snapshot)
    monkeypatch.setattr(consumers, "PUSH_EVERY_SECONDS", 0)  # each page pushes when it hears
    await database_sync_to_async(win)(alice)
    for page in pages:
        change = await page.receive_json_from()
        assert "<td data-points>2</td>" in _row(change, "alice")
    assert renders == ["render"]
    for page in pages:
        await page.disconnect()
