"""Moves over the table's own socket (/ws/games/<id>/, issue 27): the page's form fields as an
``act`` frame, through the same door as the form's POST, answered on the socket after the
commit; every refusal says why and changes nothing."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from games import events
from games.models import Action, Match
from games.state_cache import load_state
from games.web import table_socket as consumers
from tests.sockets import Socket

from .conftest import ALICE_KNOCKS, BEA_LOOSE, stacked
from .live_helpers import (
    cookie_of,
    english,
    frames,
    json_frames,
    lobby_match,
    opening_frames,
    shown_cards,
    signed_in,
    socket,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture
def match(alice: User, bob: User) -> Match:
    return lobby_match(alice, bob, stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "2D"))


async def _answer(comm: Socket, frame: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The answer to ``frame``, and every frame that followed it until the socket went quiet."""
    await comm.send_to(text_data=json.dumps(frame))
    got = await frames(comm, until='"answer"')
    at = [i for i, text in enumerate(got) if text.startswith('{"type": "answer"')]
    assert len(at) == 1, got
    return json.loads(got[at[0]]), got[at[0] + 1 :]


@database_sync_to_async
def _stored(match: Match) -> tuple[int, int]:
    match.refresh_from_db()
    return match.version, Action.objects.filter(match=match).count()


async def _connected(match: Match, *cookies: bytes) -> list[Socket]:
    sockets = [socket(match, cookie) for cookie in cookies]
    for comm in sockets:
        assert (await comm.connect())[0]
        await opening_frames(comm)
    return sockets


async def test_a_move_over_the_table_socket_is_answered_there_and_pushed_to_the_other_seat(
    match: Match, cookies
):
    alice, bob = await _connected(match, cookies["alice"], cookies["bob"])
    try:
        answer, after = await _answer(alice, {"type": "act", "move": "pass", "version": 0})
        assert answer["status"] == 200
        # The regions the move changed for alice, as the form's POST answers them.
        assert 'data-version="1"' in answer["html"] and 'hx-swap-oob="true"' in answer["html"]
        assert "Waiting for bob" in answer["html"]
        assert shown_cards(answer["html"], BEA_LOOSE) == []
        # Stored once; the move's own push brings alice nothing she was not just sent.
        assert await _stored(match) == (1, 1)
        assert not any("data-version" in text for text in after)
        pushed = "".join(await frames(bob, until='data-version="1"'))
        assert "Your turn: take the upcard" in pushed
        assert shown_cards(pushed, ALICE_KNOCKS) == []
        # And bob answers over his own socket: a draw, then a discard that names a card.
        answer, _ = await _answer(bob, {"type": "act", "move": "pass", "version": 1})
        assert answer["status"] == 200 and 'data-version="2"' in answer["html"]
        answer, _ = await _answer(alice, {"type": "act", "move": "draw_stock", "version": 2})
        assert answer["status"] == 200
        answer, _ = await _answer(
            alice, {"type": "act", "move": "discard", "card": "2D", "version": 3}
        )
        assert answer["status"] == 200 and 'data-version="4"' in answer["html"]
        assert await _stored(match) == (4, 4)
    finally:
        await alice.disconnect()
        await bob.disconnect()


REFUSED = [
    # (frame, status, what the notice says)
    ({"type": "act", "move": "pass"}, 400, "which version"),
    ({"type": "act", "move": "shuffle", "version": 0}, 400, "no move called"),
    ({"type": "act", "move": "discard", "version": 0}, 400, "Select a card first"),
    ({"type": "act", "move": "discard", "card": ["AS"], "version": 0}, 400, "Select a card"),
    ({"type": "act", "move": "pass", "version": 7}, 409, "another tab"),
    ({"type": "act", "move": "draw_stock", "version": 0}, 422, ""),
    ({"type": "act", "move": "discard", "card": "KS", "version": 0}, 422, ""),
]


@pytest.mark.parametrize(("frame", "status", "says"), REFUSED)
async def test_a_refused_move_says_why_shows_the_true_table_and_changes_nothing(
    match: Match, cookies, frame: dict[str, Any], status: int, says: str
):
    (alice,) = await _connected(match, cookies["alice"])
    try:
        answer, _ = await _answer(alice, frame)
        assert answer["status"] == status, answer
        assert says.lower() in answer["message"].lower()
        # Every region, the notice with the message among them: the page shows the truth.
        assert 'id="hand"' in answer["html"] and 'id="notice"' in answer["html"]
        assert 'data-version="0"' in answer["html"]
        assert shown_cards(answer["html"], BEA_LOOSE) == []
        assert await _stored(match) == (0, 0)
    finally:
        await alice.disconnect()


async def test_a_move_out_of_turn_or_sent_twice_is_refused_and_made_once(match: Match, cookies):
    alice, bob = await _connected(match, cookies["alice"], cookies["bob"])
    try:
        answer, _ = await _answer(bob, {"type": "act", "move": "pass", "version": 0})
        assert answer["status"] == 422
        assert await _stored(match) == (0, 0)
        move = {"type": "act", "move": "pass", "version": 0}
        assert (await _answer(alice, move))[0]["status"] == 200
        again, _ = await _answer(alice, move)
        assert again["status"] == 409
        assert await _stored(match) == (1, 1)
    finally:
        await alice.disconnect()
        await bob.disconnect()


async def test_a_watcher_cannot_move_over_the_socket(match: Match, cookies):
    (carol,) = await _connected(match, cookies["carol"])
    try:
        await carol.send_json_to({"type": "act", "move": "pass", "version": 0})
        reply = json_frames(await frames(carol, until='"error"'))
        assert reply[0]["type"] == "error" and "Watchers" in reply[0]["message"]
        assert await _stored(match) == (0, 0)
    finally:
        await carol.disconnect()


async def test_socket_moves_count_against_the_players_budget(match: Match, cookies, settings):
    settings.API_RATE_LIMIT = 2
    (alice,) = await _connected(match, cookies["alice"])
    try:
        for _ in range(2):
            answer, _after = await _answer(alice, {"type": "act", "move": "pass", "version": 9})
            assert answer["status"] == 409
        answer, _after = await _answer(alice, {"type": "act", "move": "pass", "version": 0})
        assert answer["status"] == 429 and "html" not in answer
        assert await _stored(match) == (0, 0)
    finally:
        await alice.disconnect()


@database_sync_to_async
def _german(user: User) -> bytes:
    user.profile.language = "de"
    user.profile.save()
    client: Client = signed_in(user)
    return cookie_of(client)


async def test_a_german_players_answers_stay_german(match: Match, alice: User):
    (comm,) = await _connected(match, await _german(alice))
    try:
        refused, _ = await _answer(comm, {"type": "act", "move": "discard", "version": 0})
        assert refused["message"] == "Wähle zuerst eine Karte und drücke dann die Schaltfläche."
        assert english(refused["html"]) == []
        answer, _ = await _answer(comm, {"type": "act", "move": "pass", "version": 0})
        assert answer["status"] == 200 and english(answer["html"]) == []
    finally:
        await comm.disconnect()


async def test_each_page_renders_a_move_once(match: Match, cookies, monkeypatch):
    """The mover's page is answered on its socket; the move's push, which every page of the
    match hears, renders nothing more for it (the page shows that version already). Pushes
    for other reasons (a page's socket opening: "bob is here") may still be on their way on a
    busy machine and render as they should; they are told apart by their reason."""
    alice, bob = await _connected(match, cookies["alice"], cookies["bob"])
    rendered: list[int | None] = []
    pushed: list[tuple[int | None, str]] = []  # (seat, reason) of each push that rendered
    real_render, real_updated = consumers._render, consumers.MatchConsumer.match_updated

    def counted(reader: Any, *args: Any) -> Any:
        rendered.append(reader.seat)
        return real_render(reader, *args)

    async def updated(self: consumers.MatchConsumer, event: dict[str, Any]) -> None:
        before = len(rendered)
        await real_updated(self, event)
        if len(rendered) > before:
            pushed.append((self.reader.seat if self.reader else None, event.get("reason", "")))

    monkeypatch.setattr(consumers, "_render", counted)
    monkeypatch.setattr(consumers.MatchConsumer, "match_updated", updated)
    try:
        answer, _ = await _answer(alice, {"type": "act", "move": "pass", "version": 0})
        assert answer["status"] == 200
        await frames(bob, until='data-version="1"')
        await frames(alice)
        # Bob's page rendered the move's push; alice's, answered on her socket, did not.
        assert [seat for seat, reason in pushed if reason == events.MOVED] == [1]
        # Alice's page rendered once for the move: its answer.
        assert rendered.count(0) - sum(seat == 0 for seat, _reason in pushed) == 1
    finally:
        await alice.disconnect()
        await bob.disconnect()


async def test_a_page_seeds_the_deal_over_its_socket(alice: User, bob: User, cookies):
    """The first move of a hand may carry the page's own seed (docs/fairness.md)."""
    match = await database_sync_to_async(lobby_match)(alice, bob)
    (comm,) = await _connected(match, cookies["alice"])
    seed = "ab" * 16
    try:
        answer, _ = await _answer(comm, {"type": "act", "move": "seed", "seed": seed, "version": 0})
        assert answer["status"] == 200, answer
        state = await database_sync_to_async(_state)(match)
        assert state.seeded[0] == seed and state.seeded[1] is None
        assert "waiting for bob" in answer["html"].lower()
    finally:
        await comm.disconnect()


def _state(match: Match) -> Any:
    match.refresh_from_db()
    return load_state(match)
