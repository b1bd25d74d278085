"""Moves over the already open event socket (/ws/events/): the same door as the POST, the same
answers, the same idempotency keys; bad commands change nothing and hidden cards stay hidden."""

from __future__ import annotations

import asyncio
import json
import threading
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from games.api.match_schemas import MatchDetail
from games.models import Match
from ginsite.asgi import application
from ginsite.lib.apikit import ApiJSONEncoder
from lobby.events.idempotency import content_fingerprint
from lobby.models import IdempotencyRecord
from tests.games.live_helpers import lobby_match
from tests.games.test_leak import hidden_from, secrets_of
from tests.games.test_replay import DECK
from tests.sockets import Socket

from .conftest import Api, body, token_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


class Player:
    """One player's event socket, signed in by token, and their API client beside it."""

    def __init__(self, token: str) -> None:
        self.api = Api(token)
        self.socket = Socket(
            application,
            "/ws/events/?since=0&presence=0",
            headers=[(b"host", b"testserver"), (b"authorization", f"Bearer {token}".encode())],
        )
        self.texts: list[str] = []

    async def __aenter__(self) -> Player:
        connected, _ = await self.socket.connect()
        assert connected
        return self

    async def __aexit__(self, *_: Any) -> None:
        await self.socket.disconnect()

    async def frame(self, kind: str) -> dict[str, Any]:
        """The next frame of ``kind``; every frame's text is kept in ``texts``."""
        while True:
            text = await self.socket.receive_from()
            self.texts.append(text)
            frame = json.loads(text)
            if frame["type"] == kind:
                return frame

    async def act(self, command: dict[str, Any] | str) -> dict[str, Any]:
        if isinstance(command, str):
            await self.socket.send_to(text_data=command)
            return await self.frame("error")
        await self.socket.send_json_to({"type": "act", **command})
        return await self.frame("answer")


async def _version(match: Match) -> int:
    await sync_to_async(match.refresh_from_db)()
    return match.version


def _takes_upcard(match: Match, key: str) -> dict[str, Any]:
    """The first player's first move as an ``act`` command, under ``key``."""
    return {
        "match": match.public_id,
        "version": 0,
        "action": {"type": "take_upcard"},
        "idempotency_key": key,
    }


@pytest.fixture
def table(alice, bob) -> tuple[Match, str, str]:
    return lobby_match(alice, bob, DECK), token_for(alice), token_for(bob)


async def test_a_move_over_the_socket_is_answered_as_the_post_and_reaches_the_opponent(table):
    match, alice_token, bob_token = table
    async with Player(alice_token) as alice, Player(bob_token) as bob:
        answer = await alice.act(
            {"id": "m1", "match": match.public_id, "version": 0, "action": {"type": "take_upcard"}}
        )
        assert (answer["id"], answer["status"]) == ("m1", 200)
        assert answer["body"]["view"]["version"] == 1
        assert "QC" in answer["body"]["view"]["hand"]  # the upcard, now alice's
        # The answer is the match as a GET shows it to alice now.
        read = await sync_to_async(alice.api.get)(f"/matches/{match.public_id}")
        shown = body(read)
        # All of it but who is connected this very moment (bob's socket may join between).
        assert {**answer["body"], "live": None} == {**shown, "live": None}
        assert answer["body"]["live"].keys() == shown["live"].keys()
        # Exactly the fields and types of the POST's schema, as the API's encoder writes them
        # (its times always with milliseconds: ninja's own left ".000" out).
        schema = MatchDetail.model_validate(answer["body"]).model_dump()
        assert json.loads(json.dumps(schema, cls=ApiJSONEncoder)) == answer["body"]
        # bob hears of it on his own stream, as of any move.
        while True:
            heard = await bob.frame("match")
            if heard["data"]["version"] == 1:
                break
        assert heard["data"]["view"]["seat"] == 1
    assert await _version(match) == 1


async def test_a_move_and_its_push_go_through_while_the_shared_sync_thread_is_busy(table):
    """Something slow holds asgiref's one shared sync thread (behind every thread-sensitive
    call of the process): a move sent over a socket is still answered, and the opponent's
    socket still hears of it, rather than both waiting for that thread."""
    match, alice_token, bob_token = table
    release = threading.Event()
    async with Player(alice_token) as alice, Player(bob_token) as bob:
        holding = asyncio.ensure_future(sync_to_async(release.wait)())
        try:
            answer = await alice.act(
                {"id": 1, "match": match.public_id, "version": 0, "action": {"type": "take_upcard"}}
            )
            assert answer["status"] == 200, answer
            while (await bob.frame("match"))["data"]["version"] != 1:
                pass
        finally:
            release.set()
            await holding


async def test_moves_over_the_socket_and_over_http_play_one_hand(table):
    match, alice_token, bob_token = table
    async with Player(alice_token) as alice:
        for version, action in enumerate(
            [{"type": "take_upcard"}, {"type": "discard", "card": "KD"}]
        ):
            answer = await alice.act(
                {"id": version, "match": match.public_id, "version": version, "action": action}
            )
            assert answer["status"] == 200, answer
        # bob answers over HTTP; alice goes on over the socket.
        bob = Api(bob_token)
        for version, action in [
            (2, {"type": "draw", "from": "stock"}),
            (3, {"type": "discard", "card": "KS"}),
        ]:
            posted = await sync_to_async(bob.post)(
                f"/matches/{match.public_id}/actions", {"action": action, "version": version}
            )
            assert posted.status_code == 200
        answer = await alice.act(
            {"match": match.public_id, "version": 4, "action": {"type": "draw", "from": "stock"}}
        )
        assert answer["status"] == 200 and answer["id"] is None
        answer = await alice.act(
            {"match": match.public_id, "version": 5, "action": {"type": "knock", "card": "QC"}}
        )
        assert answer["body"]["view"]["phase"] == "hand_over"
    assert await _version(match) == 6


async def test_a_refused_move_is_answered_as_the_post_and_changes_nothing(
    table, carol, django_user_model
):
    match, alice_token, bob_token = table
    dave = await sync_to_async(django_user_model.objects.create_user)("dave")
    other = await sync_to_async(lobby_match)(carol, dave, DECK)
    async with Player(alice_token) as alice, Player(bob_token) as bob:
        ident = {"match": match.public_id}
        cases = [
            # (command, status, code)
            ({**ident, "version": 3, "action": {"type": "take_upcard"}}, 409, "stale_version"),
            ({**ident, "version": 0, "action": {"type": "discard", "card": "2H"}}, 422, None),
            ({**ident, "version": 0, "action": {"type": "fold"}}, 400, "malformed"),
            ({**ident, "action": {"type": "pass"}}, 400, "malformed"),
            ({**ident, "version": 0, "action": {"type": "pass"}, "extra": 1}, 400, "malformed"),
            ({"version": 0, "action": {"type": "pass"}}, 400, "malformed"),
            ({"match": "nope", "version": 0, "action": {"type": "pass"}}, 404, "not_found"),
            # Someone else's lobby match: alice may watch it, not move in it.
            ({"match": other.public_id, "version": 0, "action": {"type": "pass"}}, 403, None),
        ]
        for command, status, code in cases:
            answer = await alice.act(command)
            assert answer["status"] == status, (command, answer)
            if code is not None:
                assert answer["body"]["code"] == code, (command, answer)
            assert answer["body"]["message"]
        # Out of turn: bob moves in alice's turn.
        answer = await bob.act({**ident, "version": 0, "action": {"type": "pass"}})
        assert answer["status"] in (409, 422) and answer["body"]["code"] != "malformed"
        # What the POST says of the same mistake, word for word.
        posted = await sync_to_async(alice.api.post)(
            f"/matches/{match.public_id}/actions", {"action": {"type": "fold"}, "version": 0}
        )
        answer = await alice.act({**ident, "version": 0, "action": {"type": "fold"}})
        assert answer["body"] == body(posted)
        for garbage in ["garbage", "[1, 2]", '{"type": "act"' + " " * 2000 + "}", '{"type": 7}']:
            error = await alice.act(garbage)
            assert error["code"] == "malformed"
    assert await _version(match) == 0
    assert await _version(other) == 0


async def test_an_idempotency_key_is_one_move_over_either_door(table, alice):
    match, alice_token, _ = table
    command = _takes_upcard(match, "move-1")
    async with Player(alice_token) as player:
        first = await player.act({**command, "id": "a"})
        again = await player.act({**command, "id": "b"})
        assert (first["status"], again["status"]) == (200, 200)
        assert again["replayed"] is True and "replayed" not in first
        assert again["id"] == "b" and again["body"] == first["body"]
        # The same move over HTTP with the same key: the same answer, not a second move.
        posted = await sync_to_async(player.api.post)(
            f"/matches/{match.public_id}/actions",
            {"version": 0, "action": {"type": "take_upcard"}},
            headers={"Idempotency-Key": "move-1"},
        )
        assert posted.status_code == 200 and posted["Idempotent-Replayed"] == "true"
        assert body(posted) == first["body"]
        # The key for another move is refused, and the move is not made.
        other = {**command, "version": 1, "action": {"type": "discard", "card": "KD"}}
        reused = await player.act(other)
        assert (reused["status"], reused["body"]["code"]) == (422, "idempotency_key_reused")
        for key in ["", "x" * 256, 7]:
            bad = await player.act({**command, "idempotency_key": key})
            assert (bad["status"], bad["body"]["code"]) == (400, "malformed")
    assert await _version(match) == 1
    assert await sync_to_async(IdempotencyRecord.objects.filter(user=alice).count)() == 1


async def test_a_key_first_sent_over_http_is_replayed_over_the_socket(table):
    match, alice_token, _ = table
    api = Api(alice_token)
    posted = await sync_to_async(api.post)(
        f"/matches/{match.public_id}/actions",
        {"version": 0, "action": {"type": "take_upcard"}},
        headers={"Idempotency-Key": "k"},
    )
    async with Player(alice_token) as alice:
        answer = await alice.act(_takes_upcard(match, "k"))
    assert answer["replayed"] is True and answer["body"] == body(posted)
    assert await _version(match) == 1


def _held_key(user: Any, match: Match, command: dict[str, Any], age: timedelta) -> None:
    """``command``'s key held for ``user`` by a first attempt begun ``age`` ago and never
    answered: a record without its answer, which only the version before this one wrote (it
    took the key over HTTP in a commit of its own, before the move)."""
    body = {name: value for name, value in command.items() if name != "match"}
    body.pop("idempotency_key")
    path = f"/api/v1/matches/{match.public_id}/actions"
    IdempotencyRecord.objects.create(
        user=user,
        key=command["idempotency_key"],
        fingerprint=content_fingerprint("POST", path, body),
    )
    IdempotencyRecord.objects.filter(user=user).update(created_at=timezone.now() - age)


async def test_a_key_held_by_a_first_attempt_still_running_makes_no_second_move(table, alice):
    match, alice_token, bob_token = table
    command = _takes_upcard(match, "slow")
    await sync_to_async(_held_key)(alice, match, command, timedelta(seconds=5))
    async with Player(alice_token) as player, Player(bob_token) as bob:
        answer = await player.act(command)
        assert (answer["status"], answer["body"]["code"]) == (409, "idempotency_in_progress")
        # Nothing reached bob: the move was undone with the key's record, before its commit.
        heard = []
        with pytest.raises(asyncio.TimeoutError):
            while True:
                heard.append((await asyncio.wait_for(bob.frame("match"), 0.5))["data"]["version"])
        assert heard and 1 not in heard, heard
    assert await _version(match) == 0


async def test_a_key_whose_first_attempt_died_is_taken_over_by_the_move(table, alice):
    match, alice_token, _ = table
    command = _takes_upcard(match, "orphan")
    await sync_to_async(_held_key)(alice, match, command, timedelta(minutes=3))
    async with Player(alice_token) as player:
        answer = await player.act(command)
        assert answer["status"] == 200 and "replayed" not in answer
        again = await player.act(command)
        assert again["replayed"] is True and again["body"] == answer["body"]
    assert await _version(match) == 1


async def test_a_refused_move_keeps_its_refusal_for_the_key(table):
    """A refusal is the key's answer too: the same command again is refused the same way, even
    once the table has moved on to where it would go through."""
    match, alice_token, bob_token = table
    early = {
        "match": match.public_id,
        "version": 1,
        "action": {"type": "take_upcard"},
        "idempotency_key": "early",
    }
    async with Player(alice_token) as alice, Player(bob_token) as bob:
        refused = await bob.act(early)
        assert (refused["status"], refused["body"]["code"]) == (409, "stale_version")
        passed = await alice.act(
            {"match": match.public_id, "version": 0, "action": {"type": "pass"}}
        )
        assert passed["status"] == 200 and passed["body"]["version"] == 1
        again = await bob.act(early)
        assert again["replayed"] is True and again["body"] == refused["body"]
        # The same move under a new key is bob's to make now.
        taken = await bob.act({**early, "idempotency_key": "now"})
        assert taken["status"] == 200 and taken["body"]["version"] == 2


async def test_no_answer_shows_a_hidden_card_or_a_seed(table):
    match, alice_token, bob_token = table
    async with Player(alice_token) as alice, Player(bob_token) as bob:
        moves = [
            (alice, 0, {"type": "take_upcard"}),
            (alice, 1, {"type": "discard", "card": "KD"}),
            (bob, 2, {"type": "draw", "from": "stock"}),
            (bob, 3, {"type": "discard", "card": "KS"}),
            (alice, 4, {"type": "draw", "from": "stock"}),
        ]
        for player, version, action in moves:
            answer = await player.act(
                {"match": match.public_id, "version": version, "action": action}
            )
            assert answer["status"] == 200
            seat = 0 if player is alice else 1
            await sync_to_async(match.refresh_from_db)()
            text = player.texts[-1]
            for card in await sync_to_async(hidden_from)(match, seat):
                assert f'"{card}"' not in text, (card, text)
            for secret in await sync_to_async(secrets_of)(match):
                assert secret not in text


async def test_a_refusal_is_in_the_players_language(table, alice):
    match, alice_token, _ = table

    def german() -> None:
        alice.profile.language = "de"
        alice.profile.save()

    await sync_to_async(german)()
    async with Player(alice_token) as player:
        answer = await player.act(
            {"match": match.public_id, "version": 5, "action": {"type": "take_upcard"}}
        )
    assert answer["status"] == 409
    posted = await sync_to_async(Api(alice_token).post)(
        f"/matches/{match.public_id}/actions",
        {"version": 5, "action": {"type": "take_upcard"}},
        headers={"Accept-Language": "de"},
    )
    assert answer["body"]["message"] == body(posted)["message"]
    assert answer["body"]["message"] != "This move was chosen on an old view of the match."


async def test_moves_count_against_the_players_rate_limit(table, settings):
    match, alice_token, _ = table
    settings.API_RATE_LIMIT = 3  # the socket's sign-in counts one
    async with Player(alice_token) as alice:
        statuses = []
        for _ in range(4):
            answer = await alice.act(
                {"match": match.public_id, "version": 9, "action": {"type": "pass"}}
            )
            statuses.append((answer["status"], answer["body"]["code"]))
    assert statuses[:2] == [(409, "stale_version")] * 2
    assert statuses[2:] == [(429, "rate_limited")] * 2
