"""Every answer the server sends is described by the published schema, field by field: real
answers from played matches and the lobby around them are checked against
``/api/v1/openapi.json`` with every object closed (``additionalProperties: false``), so a field
the schema does not name fails here (issue 42, item 5).

Coverage cannot drop silently: the test enumerates the schema's operations and fails when one
of them has no real success answer checked, when one of the declared error statuses has no
real refusal checked, or when an event type (or a line of the event stream) never came; the
only way past is ``UNREACHED``, which says why."""

from __future__ import annotations

import copy
import json
import os
import re
from datetime import timedelta
from typing import Any

import jsonschema_rs
import pytest
from asgiref.sync import async_to_sync
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.contrib.auth.models import User
from django.utils import timezone

from games.models import Match
from ginclient.api import move_body
from ginsite.lib.apikit import ERRORS
from lobby.arena import service as arena_service
from lobby.arena.models import Arena
from lobby.events import stream as event_stream
from lobby.moderation.sanctions import actions as sanctions
from tests.conftest import _make_user
from tests.lobby.arena_helpers import arena
from tests.lobby.lobby_helpers import online
from tests.lobby.push_service import b64, vapid_key
from tests.moderation.helpers import make_moderator
from tests.seeds import deal

from .conftest import API, Api, body, token_for
from .streams import NdjsonStream
from .test_browser_vs_api import pick

pytestmark = pytest.mark.django_db

# One timestamp format everywhere: ISO 8601 in UTC, milliseconds, "Z".
TIMESTAMP = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")

# Success answers (method, path template, status) that no test here can get, and why. Empty:
# every operation of the schema is answered for real below. Add to it only with a reason.
UNREACHED: dict[tuple[str, str, str], str] = {}


def _closed(node: Any) -> Any:
    """``node`` with every object that names its fields closed to any other."""
    if isinstance(node, dict):
        node = {k: _closed(v) for k, v in node.items()}
        if "properties" in node and node.get("additionalProperties") in (None, True):
            node["additionalProperties"] = False
        return node
    if isinstance(node, list):
        return [_closed(v) for v in node]
    return node


class Contract:
    """The schema's answer for each operation, and the answers checked against it."""

    def __init__(self, schema: dict[str, Any]) -> None:
        self.schema = schema
        self.components = _closed(copy.deepcopy(schema["components"]))
        self.checked: set[tuple[str, str, str]] = set()
        self.event_types: set[str] = set()
        self.line_types: set[str] = set()

    def _operation(self, method: str, path: str) -> tuple[str, dict[str, Any]]:
        for template, operations in self.schema["paths"].items():
            pattern = "^" + re.sub(r"\{[^}]+\}", "[^/]+", template) + "$"
            if re.match(pattern, API + path.split("?")[0]) and method in operations:
                return template, operations[method]
        raise AssertionError(f"no operation {method} {path}")

    def _validate(self, schema: dict[str, Any], found: Any, where: str) -> None:
        target = {**_closed(copy.deepcopy(schema)), "components": self.components}
        errors = [
            f"{e.instance_path}: {e.message}"[:300]
            for e in jsonschema_rs.Draft202012Validator(target).iter_errors(found)
        ]
        assert errors == [], (where, errors[:10])
        _timestamps(found, where)

    def check(self, method: str, path: str, response: Any) -> Any:
        template, operation = self._operation(method, path)
        status = str(response.status_code)
        answers = operation["responses"]
        assert status in answers, (method, path, status, response.content[:300])
        content = answers[status].get("content", {}).get("application/json")
        found = body(response) if response.content else None
        if content is None:
            assert found is None, (method, path, status, "an answer the schema says is empty")
        else:
            self._validate(content["schema"], found, f"{method} {path} {status}")
        self.checked.add((method, template, status))
        for event in (found or {}).get("events", []) if isinstance(found, dict) else []:
            self.event_types.add(event["type"])
        return found

    def check_lines(self, path: str, status: int, lines: list[dict[str, Any]]) -> None:
        """The lines of an NDJSON answer, each against the schema of one line."""
        template, operation = self._operation("get", path)
        schema = operation["responses"][str(status)]["content"]["application/x-ndjson"]["schema"]
        for line in lines:
            self._validate(schema, line, f"a line of {path}: {line['type']}")
            self.line_types.add(line["type"])
        self.checked.add(("get", template, str(status)))

    def successes(self) -> set[tuple[str, str, str]]:
        return {
            (method, template, status)
            for template, operations in self.schema["paths"].items()
            for method, operation in operations.items()
            for status in operation["responses"]
            if status.startswith("2")
        }


def _timestamps(node: Any, where: str, key: str = "") -> None:
    if isinstance(node, dict):
        for k, v in node.items():
            _timestamps(v, where, k)
    elif isinstance(node, list):
        for v in node:
            _timestamps(v, where, key)
    elif isinstance(node, str) and re.match(r"^\d{4}-\d\d-\d\dT\d\d:\d\d", node):
        assert TIMESTAMP.match(node), (where, key, node)


@pytest.fixture
def contract(alice_api: Api) -> Contract:
    return Contract(body(alice_api.get("/openapi.json")))


class Caller:
    """One player's API client whose every answer is checked against the contract."""

    def __init__(self, contract: Contract, user: User) -> None:
        self.contract = contract
        self.user = user
        self.api = Api(token_for(user))

    def get(self, path: str, **params: Any) -> Any:
        return self._done("get", path, self.api.get(path, **params))

    def post(self, path: str, payload: Any = None) -> Any:
        return self._done("post", path, self.api.post(path, payload))

    def delete(self, path: str) -> Any:
        answer = self.api.client.delete(API + path, headers=self.api._headers(None))
        return self._done("delete", path, answer)

    def _done(self, method: str, path: str, answer: Any) -> Any:
        assert 200 <= answer.status_code < 300, (method, path, answer.content[:300])
        return self.contract.check(method, path, answer)

    def refused(self, method: str, path: str, status: int, payload: Any = None) -> Any:
        """A refusal, with the status expected, checked as any answer is."""
        answer = self.api.get(path) if method == "get" else self.api.post(path, payload)
        assert answer.status_code == status, (path, answer.content[:300])
        return self.contract.check(method, path, answer)

    def version(self, match: str) -> int:
        return int(self.get(f"/matches/{match}")["version"])

    def events(self) -> list[dict[str, Any]]:
        """All of this player's events, page by page."""
        found: list[dict[str, Any]] = []
        while page := self.get("/events", since=found[-1]["seq"] if found else 0)["events"]:
            found += page
        return found


def _play_to_the_end(players: dict[int, Caller], match: str) -> dict[str, Any]:
    """Both seats play ``match`` through the API until it is over; its last detail."""
    for _ in range(600):
        detail = players[0].get(f"/matches/{match}")
        if detail["status"] != "active":
            return detail
        seat = detail["view"]["to_act"]
        if seat is None:  # the seeds for a deal, or the next hand: whoever has something to do
            seat = next(
                s for s in (0, 1) if players[s].get(f"/matches/{match}")["view"]["legal_actions"]
            )
        mine = players[seat].get(f"/matches/{match}")["view"]
        players[seat].post(f"/matches/{match}/actions", move_body(mine, pick(mine)))
    raise AssertionError("the match did not end")


def _stream(caller: Caller) -> list[dict[str, Any]]:
    """The lines of ``GET /events/stream?since=0``: the hello, every event, and the presence
    and keepalive lines that follow (a keepalive after KEEPALIVE_SECONDS, made short here)."""

    async def read() -> list[dict[str, Any]]:
        bearer = f"Bearer {caller.api.token}".encode()
        stream = NdjsonStream("/api/v1/events/stream", "since=0", [(b"authorization", bearer)])
        await stream.open()
        try:
            assert stream.status == 200
            lines = [await stream.line()]
            while not {"presence", "keepalive"} <= {line["type"] for line in lines}:
                lines.append(await stream.line())
                assert len(lines) < 500
            return lines
        finally:
            await stream.close()

    return async_to_sync(read)()


def _device() -> dict[str, Any]:
    """A browser's subscription at a real push service (nothing is sent to it here)."""
    public = (
        ec.generate_private_key(ec.SECP256R1())
        .public_key()
        .public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    )
    return {
        "endpoint": f"https://fcm.googleapis.com/fcm/send/{b64(os.urandom(12))}",
        "keys": {"p256dh": b64(public), "auth": b64(os.urandom(16))},
        "device": "Phone",
    }


@pytest.mark.django_db(transaction=True)  # the stream reads the log from threads of its own
@pytest.mark.timeout(600)  # a whole rated match and the lobby around it, on a shared machine
def test_every_operation_answers_as_the_schema_says(
    alice, bob, carol, django_user_model, contract: Contract, settings, monkeypatch
):
    settings.VAPID_PRIVATE_KEY = vapid_key()
    monkeypatch.setattr(event_stream, "KEEPALIVE_SECONDS", 0.2)
    # Two players to each match (one live match at a time each), and a moderator.
    more = [
        _make_user(django_user_model, name)
        for name in ("dave", "erin", "finn", "gina", "hank", "ivan", "judy", "kate")
    ]
    moderator = make_moderator(django_user_model, "mona")
    a, b, c, d, e, f, g, h, i, j, k = (
        Caller(contract, user) for user in (alice, bob, carol, *more)
    )
    online(alice, bob, carol, *more)

    # --- Players, follows ---------------------------------------------------------------------
    a.get("/me")
    a.get("/players/online")
    a.get("/players/bob")
    a.get("/players", q="bo")
    a.post("/players/bob/follow")
    a.get("/me/friends")
    a.delete("/players/bob/follow")

    # --- Challenges: accepted, cancelled, declined with a counter-proposal and that accepted --
    made = a.post("/challenges", {"to": "bob", "preset": "simple", "target": 50, "rated": True})
    b.get("/challenges")
    b.get(f"/challenges/{made['id']}")
    rated = b.post(f"/challenges/{made['id']}/accept")["match"]
    gone = i.post("/challenges", {"to": "judy", "preset": "simple", "target": 50})
    i.post(f"/challenges/{gone['id']}/cancel")
    countered = c.post("/challenges", {"to": "dave", "preset": "standard", "target": 100})
    declined = d.post(
        f"/challenges/{countered['id']}/decline",
        {"reason": "rules", "counter": {"preset": "classic", "target": 250}},
    )
    assert declined["counter"]["status"] == "open"
    c.get(f"/challenges/{declined['counter']['id']}")
    c.get("/challenges")
    casual = c.post(f"/challenges/{countered['id']}/accept-counter")["match"]

    # --- A rated match played to the end, watched, with quick messages and offers ------------
    a.get("/lobby/matches")
    c.get(f"/matches/{rated}")  # a watcher's view
    a.post(f"/matches/{rated}/messages", {"message": "good_luck"})
    b.post(f"/matches/{rated}/messages", {"message": "good_game"})
    a.refused("post", f"/matches/{rated}/messages", 429, {"message": "thanks"})
    c.refused("post", f"/matches/{rated}/messages", 403, {"message": "thanks"})
    b.post(f"/matches/{rated}/messages/mute", {"muted": True})
    b.post(f"/matches/{rated}/messages/mute", {"muted": False})
    restart = a.post(f"/matches/{rated}/offers", {"kind": "restart", "version": a.version(rated)})
    a.get(f"/matches/{rated}")  # the offer waits: on both players' views
    b.get(f"/matches/{rated}")
    b.post(f"/matches/{rated}/offers/{restart['id']}/decline", {"version": b.version(rated)})
    a.get(f"/matches/{rated}")  # the decline shown
    again = a.post(f"/matches/{rated}/offers", {"kind": "restart", "version": a.version(rated)})
    a.post(f"/matches/{rated}/offers/{again['id']}/withdraw", {"version": a.version(rated)})
    finished = _play_to_the_end({0: a, 1: b}, rated)
    assert finished["status"] == "finished"
    for hand in finished["view"]["history"][:2]:  # replays, with Bea's notes and review
        a.get(f"/matches/{rated}/hands/{hand['hand_number']}/replay")
    a.get(f"/matches/{rated}/review")  # Bea's review of the whole match
    c.get(f"/matches/{rated}")  # a finished match, watched
    rematch = b.post(f"/matches/{rated}/offers", {"kind": "rematch", "version": b.version(rated)})
    answered = a.post(
        f"/matches/{rated}/offers/{rematch['id']}/accept", {"version": a.version(rated)}
    )
    follow_up = answered["next"]
    a.get(f"/matches/{follow_up}")
    a.post(f"/matches/{follow_up}/resign", {"version": a.version(follow_up)})
    a.get(f"/matches/{follow_up}")  # resigned early: aborted

    # --- A restart accepted: the match says what it counted for, and its follow-up -----------
    r = c.post(f"/matches/{casual}/offers", {"kind": "restart", "version": c.version(casual)})
    restarted = d.post(f"/matches/{casual}/offers/{r['id']}/accept", {"version": d.version(casual)})
    c.get(f"/matches/{casual}")
    c.get(f"/matches/{restarted['next']}")

    # --- A correspondence match whose days ran out: the win claimed --------------------------
    slow = e.post(
        "/challenges", {"to": "finn", "preset": "simple", "target": 50, "days_per_move": 1}
    )
    by_post = f.post(f"/challenges/{slow['id']}/accept")["match"]
    f.get("/me/your-turn")  # the first hand waits for the seeds: on both lists
    deal(Match.objects.get(public_id=by_post))
    mover, waiting = (e, f) if e.get(f"/matches/{by_post}")["view"]["to_act"] == 0 else (f, e)
    mover.get("/me/your-turn")
    Match.objects.filter(public_id=by_post).update(turn_began_at=timezone.now() - timedelta(days=2))
    waiting.get(f"/matches/{by_post}")  # claimable
    waiting.post(f"/matches/{by_post}/claim", {"version": waiting.version(by_post)})

    # --- Seeks and the pool -----------------------------------------------------------------
    g.get("/seeks")
    seek = g.post("/seeks", {"preset": "classic"})
    h.get(f"/seeks/{seek['id']}")
    g.post(f"/seeks/{seek['id']}/cancel")
    taken = g.post("/seeks", {"preset": "simple", "target": 50})
    h.get("/seeks")
    h.post(f"/seeks/{taken['id']}/accept")
    i.post("/pool", {"preset": "standard", "target": 150})
    i.get("/pool")
    i.delete("/pool")
    i.post("/pool", {"preset": "classic", "target": 50})
    j.post("/pool", {"preset": "classic", "target": 50})
    j.get("/pool")

    # --- Bea --------------------------------------------------------------------------------
    k.post("/matches/bea", {"level": "easy", "target": 50})

    # --- Reports, and a moderator's sanction (a moderation event) ---------------------------
    c.post("/players/bob/reports", {"reason": "rude_messages", "note": "said rude things"})
    sanctions.act(moderator, bob, "warning", "rude_messages", "rude in a match")

    # --- Ratings, lists, push subscriptions -------------------------------------------------
    a.get("/me/ratings")
    a.get("/players/bob/ratings")
    a.get("/leaderboards/simple")
    a.get("/matches", status="all")
    a.get("/me/matches")
    e.get("/me/matches")
    a.get("/me/your-turn")
    a.get("/me/push-subscriptions")
    added = a.post("/me/push-subscriptions", _device())
    a.get("/me/push-subscriptions")
    a.delete(f"/me/push-subscriptions/{added['id']}")

    # --- Refusals: one of each declared status ----------------------------------------------
    a.refused("post", f"/matches/{rated}/actions", 400, {"action": "nonsense"})
    contract.check("get", "/me", Api("gin_not-a-token").get("/me"))
    a.refused("get", "/matches/no-such-match", 404)
    a.refused("post", f"/matches/{restarted['next']}/resign", 403, {"version": 0})
    c.refused("post", f"/matches/{restarted['next']}/resign", 409, {"version": 99})
    a.refused("post", "/challenges", 422, {"to": "alice", "preset": "simple", "target": 50})

    # --- Arenas: the site's listed; a private one made, joined, started (an arena event each,
    # and a pairing), paused, left, its match resigned, and over (an arena event with places) --
    arena()
    lena, milo = (Caller(contract, _make_user(django_user_model, n)) for n in ("lena", "milo"))
    lena.get("/arenas")
    club = lena.post("/arenas", {"name": "Club", "preset": "simple", "target": 50, "minutes": 20})
    for caller in (lena, milo):
        caller.post(f"/arenas/{club['id']}/join")
    held = Arena.objects.filter(public_id=club["id"])
    held.update(starts_at=timezone.now() - timedelta(seconds=1))
    arena_service.sweep(timezone.now())
    paired = lena.get(f"/arenas/{club['id']}")["me"]["playing"]
    lena.get(f"/arenas/{club['id']}/standings")
    milo.post(f"/arenas/{club['id']}/pause")
    lena.post(f"/arenas/{club['id']}/leave")
    lena.post(f"/matches/{paired}/resign", {"version": lena.version(paired)})
    held.update(ends_at=timezone.now() - timedelta(seconds=1))
    arena_service.sweep(timezone.now())
    assert lena.get(f"/arenas/{club['id']}")["phase"] == "over"

    # --- Events: polled and streamed, every type ---------------------------------------------
    for caller in (a, b, c, d, e, f, g, h, i, j, k, lena, milo):
        caller.events()
    lines = _stream(b)
    assert [line["seq"] for line in lines if "seq" in line] == [
        event["seq"] for event in b.events()
    ]
    contract.check_lines("/events/stream", 200, lines)

    # Nothing of the schema went unanswered, and nothing but what it names came.
    missing = contract.successes() - contract.checked - set(UNREACHED)
    assert missing == set(), sorted(missing)
    refusals = {int(status) for (_m, _t, status) in contract.checked if status[0] == "4"}
    assert refusals >= set(ERRORS), sorted(set(ERRORS) - refusals)
    schemas = contract.schema["components"]["schemas"]
    types = set(schemas["Event"]["properties"]["type"]["enum"])
    assert contract.event_types == types, types ^ contract.event_types
    assert contract.line_types >= {"hello", "keepalive", "presence", "match", "rating"}


class _Answer:
    def __init__(self, content: dict[str, Any]) -> None:
        self.status_code = 200
        self.content = json.dumps(content).encode()


def test_the_check_fails_on_a_field_the_schema_does_not_name(alice, contract: Contract):
    api = Api(token_for(alice))
    me = body(api.get("/me"))
    contract.check("get", "/me", _Answer(me))
    with pytest.raises(AssertionError, match="surprise"):
        contract.check("get", "/me", _Answer({**me, "surprise": 1}))


def test_the_coverage_check_names_an_operation_nobody_answered(contract: Contract):
    contract.checked = contract.successes() - {("get", "/api/v1/me", "200")}
    missing = contract.successes() - contract.checked - set(UNREACHED)
    assert missing == {("get", "/api/v1/me", "200")}


def _fields(schema: dict[str, Any]) -> dict[str, str]:
    """Every field name any success answer of ``schema`` may hold, with where it is first."""
    components = schema["components"]["schemas"]
    found: dict[str, str] = {}
    seen: set[str] = set()

    def walk(node: Any, where: str) -> None:
        if isinstance(node, list):
            for item in node:
                walk(item, where)
            return
        if not isinstance(node, dict):
            return
        if "$ref" in node:
            name = node["$ref"].rsplit("/", 1)[-1]
            if name not in seen:
                seen.add(name)
                walk(components[name], name)
            return
        for field, value in (node.get("properties") or {}).items():
            found.setdefault(field, where)
            walk(value, f"{where}.{field}")
        for key, value in node.items():
            if key != "properties":
                walk(value, where)

    for template, operations in schema["paths"].items():
        for method, operation in operations.items():
            for status, answer in operation["responses"].items():
                if status.startswith("2"):
                    walk(answer.get("content"), f"{method} {template}")
    return found


def test_every_field_the_schema_names_is_in_the_docs(contract: Contract):
    """docs/api.md names each field of each answer as code (`name`, or in an example), so a
    developer reading it meets every field the server sends (the test above keeps the schema
    to what is sent)."""
    with open(os.path.join(os.path.dirname(__file__), "..", "..", "docs", "api.md")) as docs:
        text = docs.read()
    fences = re.findall(r"```.*?```", text, flags=re.S)
    spans = re.findall(r"`([^`]+)`", re.sub(r"```.*?```", " ", text, flags=re.S))
    code = " ".join(spans + fences)
    fields = _fields(contract.schema)
    assert len(fields) > 150
    missing = {
        field: where
        for field, where in fields.items()
        if not re.search(rf"(?<![A-Za-z0-9_]){re.escape(field)}(?![A-Za-z0-9_])", code)
    }
    assert missing == {}
