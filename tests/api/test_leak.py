"""No hidden card ever reaches an API client: random lobby matches played entirely through the
API by both seats, with a watcher, scanning every response body and every event (as the
stream delivers it) for the cards its reader may not see at that moment, in code form."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from games import access
from games.engine import ALL_CARDS, legal_actions
from games.models import Match
from games.state_cache import load_state
from lobby.events import log as event_log
from tests.games.test_leak import choose, hidden_from, told_secrets

from .conftest import Api, body, token_for

pytestmark = pytest.mark.django_db(transaction=True)

MATCHES = 4
MAX_ACTIONS = 120
WATCHER = 2
CODE = re.compile(r'"([A2-9TJQK][CDHS])"')


def _codes(text: str) -> set[str]:
    """Every card code written as a JSON string anywhere in ``text``."""
    return {c for c in CODE.findall(text) if c in ALL_CARDS}


class Scanner:
    def __init__(self) -> None:
        self.scanned = 0

    def check(self, match: Match, reader: int, text: str, where: str) -> None:
        self.scanned += 1
        match.refresh_from_db()
        leaked = _codes(text) & set(hidden_from(match, reader))
        assert not leaked, f"{where} showed reader {reader} hidden {sorted(leaked)}"
        assert not told_secrets(match, text), f"{where} to reader {reader} showed a secret seed"


def _start(apis: list[Api], rng: random.Random) -> Match:
    """bob is in the lobby; alice challenges him and he accepts, all through the API."""
    apis[1].get("/players/online")
    made = apis[0].post("/challenges", {"to": "bob", "target": rng.choice([50, 100])})
    assert made.status_code == 201, made.content
    started = apis[1].post(f"/challenges/{body(made)['id']}/accept")
    return Match.objects.get(public_id=body(started)["match"])


def _check_events(scan: Scanner, api: Api, user: Any, reader: int, since: int) -> int:
    """Scan every event ``reader`` has not seen yet, through the page a client polls and as the
    stream delivers them; each match event against its own match, anything else for any card."""
    page = body(api.get("/events", since=since, limit=event_log.BATCH))["events"]
    streamed = event_log.deliver(user, event_log.fetch(user.pk, since, event_log.BATCH))
    for item in page + streamed:
        text = json.dumps(item)
        if item["type"] == "match":
            match = Match.objects.get(public_id=item["data"]["match"])
            seat = access.seat_of(match, user)
            scan.check(match, WATCHER if seat is None else seat, text, f"event {item['seq']}")
        else:
            scan.scanned += 1
            assert not _codes(text), f"a {item['type']} event holds cards: {text}"
    return max([since, *(e["seq"] for e in page)])


@pytest.mark.timeout(600)
def test_no_hidden_card_reaches_an_api_client(alice, bob, carol):
    users = [alice, bob, carol]
    apis = [Api(token_for(u)) for u in users]
    scan = Scanner()
    since = [0, 0, 0]
    hands_ended = 0
    for number in range(MATCHES):
        rng = random.Random(number)
        match = _start(apis, rng)
        path = f"/matches/{match.public_id}"
        for step in range(MAX_ACTIONS):
            match.refresh_from_db()
            state = load_state(match)
            if state.phase == "match_over":
                break
            # The seat to move, either seat between hands, or one whose seed is awaited.
            seat = rng.choice([s for s in (0, 1) if legal_actions(state, s)])
            detail = apis[seat].get(path)
            scan.check(match, seat, detail.content.decode(), "GET match")
            action = choose(body(detail)["view"], rng)
            version = body(detail)["version"]
            move = {"action": action, "version": version, "seed": f"api-{rng.randrange(10**9)}"}
            response = apis[seat].post(f"{path}/actions", move)
            assert response.status_code == 200, response.content
            scan.check(match, seat, response.content.decode(), f"POST {action}")
            # A refusal (a stale repeat, or a second seed) says nothing about the cards either.
            refused = apis[seat].post(f"{path}/actions", {"action": action, "version": version})
            assert refused.status_code == 409 or (
                action["type"] == "seed" and refused.status_code == 422
            )
            scan.check(match, seat, refused.content.decode(), "409")
            match.refresh_from_db()
            if load_state(match).phase in ("hand_over", "match_over"):
                hands_ended += 1
            for reader in (0, 1, WATCHER):
                since[reader] = _check_events(
                    scan, apis[reader], users[reader], reader, since[reader]
                )
            if step % 10 == 0:
                scan.check(match, WATCHER, apis[WATCHER].get(path).content.decode(), "watch")
                for reader in (0, 1):
                    listed = apis[reader].get("/matches").content.decode()
                    scan.check(match, reader, listed, "list")
        match.refresh_from_db()
        if match.is_active:
            apis[0].post(f"{path}/resign", {"version": match.version})
    assert hands_ended >= MATCHES // 2, "too few hands reached their end to test the reveal"
    assert scan.scanned > MATCHES * 200
