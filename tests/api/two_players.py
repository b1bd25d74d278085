"""Two players' worlds on a real server, made through the API as clients make them, and the
watch a fuzz run keeps over every answer one of them gets.

alice has a lobby match in play against carol (with her restart offer open in it), the
finished match before it (whose rematch offer she accepted), a match against Bea, an open
challenge to dave, the accepted challenge that began it all, and an open seek. bob has a
lobby match in play against erin (from his seek), a match against Bea, and a challenge erin
declined with a counter-proposal (itself a challenge to bob). bob's token then fuzzes every
operation, with ids drawn from both worlds; ``Watch`` checks each answer he gets.
"""

from __future__ import annotations

import json
import re
import secrets
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import requests

from games.models import Match
from games.state_cache import load_state
from tests.games.live_helpers import shown_cards
from tests.games.test_leak import hidden_from, secrets_of

API = "/api/v1"
WATCHER = 2  # hidden_from's reader for someone who sits in neither seat
CARD = re.compile(r'"([A2-9TJQK][CDHS])"')
MATCH_PATH = re.compile(r"^/api/v1/matches/([^/]+)(/|$)")
BEA_WAIT_SECONDS = 30


class Client:
    """One player's token, talking to the server over HTTP."""

    def __init__(self, base: str, token: str) -> None:
        self.base = base
        self.headers = {"Authorization": f"Bearer {token}"}
        self.http = requests.Session()

    def get(self, path: str) -> Any:
        return self._answer(self.http.get(self.base + API + path, headers=self.headers, timeout=30))

    def post(self, path: str, body: dict[str, Any] | None = None) -> Any:
        answer = self.http.post(
            self.base + API + path, json=body or {}, headers=self.headers, timeout=30
        )
        return self._answer(answer)

    @staticmethod
    def _answer(response: requests.Response) -> Any:
        assert response.status_code < 300, f"{response.request.url}: {response.text}"
        return response.json()


@dataclass
class World:
    """The ids of each player's things, and which of alice's are hers alone."""

    ids: dict[str, list[Any]] = field(default_factory=dict)  # by path parameter: alice's, bob's
    alice_ids: dict[str, set[Any]] = field(default_factory=dict)
    alice_private: dict[str, set[Any]] = field(default_factory=dict)  # 404 to bob, as unknown
    alice_matches: list[str] = field(default_factory=list)
    alice: Client | None = None
    bob_token: str = ""

    def add(self, name: str, value: Any, *, alices: bool = False, private: bool = False) -> None:
        self.ids.setdefault(name, []).append(value)
        if alices:
            self.alice_ids.setdefault(name, set()).add(value)
        if private:
            self.alice_private.setdefault(name, set()).add(value)

    def alice_sees(self) -> dict[str, Any]:
        """What alice's own client shows of her things: the state bob must never change."""
        assert self.alice is not None
        seen: dict[str, Any] = {}
        for pk in sorted(self.alice_ids["challenge_id"]):
            status = self.alice.get(f"/challenges/{pk}")["status"]
            # An open challenge expires on its own after two minutes; nobody else moves it.
            seen[f"challenge {pk}"] = "open or expired" if status in ("open", "expired") else status
        for pk in sorted(self.alice_ids["seek_id"]):
            status = self.alice.get(f"/seeks/{pk}")["status"]
            # An open seek expires on its own once alice has been out of the lobby a while
            # (a long run on a busy machine); taken or cancelled, someone moved it.
            seen[f"seek {pk}"] = "open or expired" if status in ("open", "expired") else status
        for public_id in self.alice_matches:
            detail = self.alice.get(f"/matches/{public_id}")
            live = detail.get("live") or {}
            offers = [live.get(part) for part in ("offer", "answered", "next")]
            seen[f"match {public_id}"] = (detail["status"], detail["version"], offers)
        return seen


def _version(client: Client, public_id: str) -> int:
    return int(client.get(f"/matches/{public_id}")["version"])


def _deal(client: Client, public_id: str) -> None:
    """Send the player's seed if the hand waits for it (docs/fairness.md: a hand is dealt once
    the players' seeds are in)."""
    detail = client.get(f"/matches/{public_id}")
    if any(action["type"] == "seed" for action in detail["view"]["legal_actions"]):
        seed = {"type": "seed", "seed": secrets.token_urlsafe(16)}
        client.post(f"/matches/{public_id}/actions", {"action": seed, "version": detail["version"]})


def _wait_for_turn(client: Client, public_id: str) -> None:
    """Until Bea has made the moves she makes before her opponent's first."""
    deadline = time.monotonic() + BEA_WAIT_SECONDS
    while not client.get(f"/matches/{public_id}")["your_turn"]:
        assert time.monotonic() < deadline, f"Bea never handed the turn over in {public_id}"
        time.sleep(0.1)


def build(base: str, tokens: dict[str, str]) -> World:
    """Both worlds, through the API (the players concerned are in the lobby first)."""
    c = {name: Client(base, token) for name, token in tokens.items()}
    world = World(alice=c["alice"])
    for name in c:
        c[name].get("/players/online")  # asking is being in the lobby

    # alice: a match with carol, over; then a challenge to dave and a seek, both left open;
    # then carol's rematch, accepted (the lobby's open challenges stay as they are).
    first = c["alice"].post("/challenges", {"to": "carol"})
    m0 = c["carol"].post(f"/challenges/{first['id']}/accept")["match"]
    _deal(c["alice"], m0)
    _deal(c["carol"], m0)
    c["alice"].post(f"/matches/{m0}/resign", {"version": _version(c["alice"], m0)})
    to_dave = c["alice"].post("/challenges", {"to": "dave"})
    seek = c["alice"].post("/seeks", {"target": 50})
    rematch = c["carol"].post(
        f"/matches/{m0}/offers", {"kind": "rematch", "version": _version(c["carol"], m0)}
    )
    m1 = c["alice"].post(
        f"/matches/{m0}/offers/{rematch['id']}/accept", {"version": _version(c["alice"], m0)}
    )["next"]
    _deal(c["alice"], m1)
    _deal(c["carol"], m1)
    restart = c["alice"].post(
        f"/matches/{m1}/offers", {"kind": "restart", "version": _version(c["alice"], m1)}
    )
    bea = c["alice"].post("/matches/bea", {"target": 50})["id"]
    _deal(c["alice"], bea)
    _wait_for_turn(c["alice"], bea)
    for pk in (first["id"], to_dave["id"]):
        world.add("challenge_id", pk, alices=True, private=True)
    world.add("seek_id", seek["id"], alices=True)
    for public_id in (m0, m1):
        world.add("match_id", public_id, alices=True)
    world.add("match_id", bea, alices=True, private=True)
    for pk in (rematch["id"], restart["id"]):
        world.add("offer_id", pk, alices=True)
    world.alice_matches = [m0, m1, bea]

    # bob: a challenge erin declined with other rules (her counter-proposal is a challenge to
    # bob), then his seek, which erin takes: a match in play; and a match against Bea.
    to_erin = c["bob"].post("/challenges", {"to": "erin"})
    declined = c["erin"].post(
        f"/challenges/{to_erin['id']}/decline", {"reason": "target", "counter": {"target": 50}}
    )
    own_seek = c["bob"].post("/seeks")
    b1 = c["erin"].post(f"/seeks/{own_seek['id']}/accept")["match"]
    _deal(c["bob"], b1)
    _deal(c["erin"], b1)
    b_bea = c["bob"].post("/matches/bea", {"target": 50})["id"]
    _deal(c["bob"], b_bea)
    _wait_for_turn(c["bob"], b_bea)
    world.add("challenge_id", to_erin["id"])
    world.add("challenge_id", declined["counter"]["id"])
    world.add("seek_id", own_seek["id"])
    world.add("match_id", b1)
    world.add("match_id", b_bea)
    world.ids["hand_number"] = [1, 2]
    return world


# --- The watch over bob's answers ---------------------------------------------------------------


class Watch:
    """Every answer bob's session gets (the fuzz's requests, the checks' own, the twins) is
    counted and checked: a content type always; an error is JSON with ``code`` and
    ``message``; no card hidden from bob in alice's matches, and no secret seed of theirs."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.session = requests.Session()
        self.session.hooks["response"].append(self._on_answer)
        self.requests = 0
        self.statuses: Counter[int] = Counter()
        self.cross: Counter[str] = Counter()
        self._known: dict[str, tuple[list[str], list[str]]] = {}
        self.started = time.monotonic()

    def _on_answer(self, response: requests.Response, *args: Any, **kwargs: Any) -> None:
        self.requests += 1
        self.statuses[response.status_code] += 1
        where = f"{response.request.method} {response.request.path_url} -> {response.status_code}"
        assert response.status_code < 500, f"{where}: {response.text[:500]}"
        kind = response.headers.get("Content-Type", "")
        assert kind, f"{where} has no content type: {response.content[:200]!r}"
        if response.status_code >= 400:
            assert kind.startswith("application/json"), f"{where} is {kind}: {response.text[:200]}"
            error = response.json()
            assert isinstance(error.get("code"), str), f"{where}: {error}"
            assert isinstance(error.get("message"), str), f"{where}: {error}"
        self._no_leak(response, where)

    def _secrets(self, public_id: str) -> tuple[list[str], list[str]]:
        """What a match of alice's hides from bob (cards, secret seeds). Read once: alice's
        matches do not change during the run (the test checks that at its end)."""
        if public_id not in self._known:
            match = Match.objects.get(public_id=public_id)
            hidden = set(hidden_from(match, WATCHER)) | set(alices_hand(match))
            self._known[public_id] = (sorted(hidden), secrets_of(match))
        return self._known[public_id]

    def _no_leak(self, response: requests.Response, where: str) -> None:
        text = response.text
        for public_id in self.world.alice_matches:
            told = [secret for secret in self._secrets(public_id)[1] if secret in text]
            assert not told, f"{where} told a secret seed of alice's match {public_id}"
        path = response.request.path_url.split("?")[0]
        about = MATCH_PATH.match(path)
        public_id = about.group(1) if about else _detail_id(response)
        if public_id is not None:
            if public_id in self.world.alice_matches:
                self._check_match(public_id, text, where)
            return  # otherwise bob's own match: his own cards (tests/api/test_leak.py)
        if path == f"{API}/events" and response.status_code == 200:
            for event in response.json()["events"]:
                match_id = event["data"].get("match") if event["type"] == "match" else None
                if match_id is None:
                    assert not CARD.findall(json.dumps(event)), f"{where}: a card in {event}"
                elif match_id in self.world.alice_matches:
                    self._check_match(match_id, json.dumps(event), where)
            return
        assert not CARD.findall(text), f"{where} shows cards: {text[:300]}"

    def _check_match(self, public_id: str, text: str, where: str) -> None:
        self.cross["answers about alice's matches"] += 1
        leaked = shown_cards(text, self._secrets(public_id)[0])
        assert not leaked, f"{where} showed bob {leaked}, hidden in alice's match {public_id}"

    def summary(self) -> str:
        seconds = time.monotonic() - self.started
        statuses = ", ".join(f"{code}: {n}" for code, n in sorted(self.statuses.items()))
        cross = ", ".join(f"{what}: {n}" for what, n in sorted(self.cross.items()))
        return (
            f"schemathesis through daphne: {self.requests} requests in {seconds:.0f} s "
            f"({statuses}); {cross}"
        )


def alices_hand(match: Match) -> list[str]:
    """The cards alice holds in ``match`` that she has not shown (her hand, all of it, since
    she makes no move): what bob must never see."""
    state = load_state(match)
    for seat in match.seats.all():
        if seat.user is not None and seat.user.get_username() == "alice":
            hand = [
                card for card in state.hands[seat.number] if card not in state.known[seat.number]
            ]
            assert hand, f"alice holds no hidden card in {match.public_id}: nothing to look for"
            return hand
    raise AssertionError(f"alice does not sit in {match.public_id}")


def _detail_id(response: requests.Response) -> str | None:
    """The match an answer shows a view of (``POST /matches/bea``) when its path names none."""
    if not response.headers.get("Content-Type", "").startswith("application/json"):
        return None
    try:
        body = response.json()
    except ValueError:
        return None
    if isinstance(body, dict) and "view" in body and isinstance(body.get("id"), str):
        return str(body["id"])
    return None
