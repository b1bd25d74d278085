"""Every answer the server sends is described by the published schema, field by field: real
answers from a played match and the lobby around it are checked against
``/api/v1/openapi.json`` with every object closed (``additionalProperties: false``), so a field
the schema does not name fails here (issue 42, item 5)."""

from __future__ import annotations

import copy
import re
from typing import Any

import jsonschema_rs
import pytest

from ginclient.api import move_body
from tests.lobby.lobby_helpers import online

from .conftest import Api, body, token_for
from .test_browser_vs_api import pick

pytestmark = pytest.mark.django_db

# One timestamp format everywhere: ISO 8601 in UTC, milliseconds, "Z".
TIMESTAMP = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")


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
        self.checked: set[tuple[str, str]] = set()

    def _operation(self, method: str, path: str) -> tuple[str, dict[str, Any]]:
        for template, operations in self.schema["paths"].items():
            pattern = "^" + re.sub(r"\{[^}]+\}", "[^/]+", template) + "$"
            if re.match(pattern, "/api/v1" + path.split("?")[0]) and method in operations:
                return template, operations[method]
        raise AssertionError(f"no operation {method} {path}")

    def check(self, method: str, path: str, response: Any) -> Any:
        template, operation = self._operation(method, path)
        status = str(response.status_code)
        answers = operation["responses"]
        assert status in answers, (method, path, status, response.content[:300])
        content = answers[status].get("content", {}).get("application/json")
        found = body(response) if response.content else None
        if content is not None:
            target = {**_closed(copy.deepcopy(content["schema"])), "components": self.components}
            errors = [
                f"{e.instance_path}: {e.message}"[:300]
                for e in jsonschema_rs.Draft202012Validator(target).iter_errors(found)
            ]
            assert errors == [], (method, path, errors[:10])
        _timestamps(found, f"{method} {path}")
        self.checked.add((method, template))
        return found


def _timestamps(node: Any, where: str, key: str = "") -> None:
    if isinstance(node, dict):
        for k, v in node.items():
            _timestamps(v, where, k)
    elif isinstance(node, list):
        for v in node:
            _timestamps(v, where, key)
    elif isinstance(node, str) and re.match(r"^\d{4}-\d\d-\d\dT\d\d:\d\d", node):
        assert TIMESTAMP.match(node), (where, key, node)


def _view(detail: dict[str, Any]) -> list[Any]:
    return detail["view"]["legal_actions"]  # type: ignore[no-any-return]


@pytest.fixture
def contract(alice_api: Api) -> Contract:
    return Contract(body(alice_api.get("/openapi.json")))


def test_a_played_match_and_the_lobby_around_it_answer_as_the_schema_says(
    alice, bob, carol, contract: Contract
):
    alice_api, bob_api, carol_api = (Api(token_for(u)) for u in (alice, bob, carol))
    online(alice, bob, carol)

    def get(api: Api, path: str, **params: Any) -> Any:
        return contract.check("get", path, api.get(path, **params))

    def post(api: Api, path: str, payload: Any = None) -> Any:
        return contract.check("post", path, api.post(path, payload))

    get(alice_api, "/me")
    get(alice_api, "/players/online")
    get(alice_api, "/players/bob")
    get(alice_api, "/players", q="bo")
    post(alice_api, "/players/bob/follow")
    get(alice_api, "/me/friends")
    made = post(
        alice_api, "/challenges", {"to": "bob", "preset": "simple", "target": 50, "rated": True}
    )
    get(bob_api, "/challenges")
    get(bob_api, f"/challenges/{made['id']}")
    started = post(bob_api, f"/challenges/{made['id']}/accept")
    match = started["match"]
    apis = {0: alice_api, 1: bob_api}
    get(carol_api, "/lobby/matches")
    get(carol_api, f"/matches/{match}")  # a watcher's view
    for _ in range(400):
        detail = get(alice_api, f"/matches/{match}")
        if detail["status"] != "active":
            break
        view = detail["view"]
        seat = view["to_act"]
        if seat is None:  # the seeds for a deal: whoever has something to do
            seat = next(s for s in (0, 1) if _view(get(apis[s], f"/matches/{match}")))
        mine = get(apis[seat], f"/matches/{match}")["view"]
        post(apis[seat], f"/matches/{match}/actions", move_body(mine, pick(mine)))
    assert detail["status"] == "finished"
    get(alice_api, f"/matches/{match}/hands/1/replay")
    get(alice_api, "/matches", status="all")
    get(alice_api, "/me/matches")
    get(alice_api, "/me/your-turn")
    kinds: set[str] = set()
    since = 0
    while events := get(alice_api, "/events", since=since)["events"]:
        kinds |= {e["type"] for e in events}
        since = events[-1]["seq"]
    assert {"match", "rating"} <= kinds
    get(bob_api, "/events", since=0)
    get(alice_api, "/me/ratings")
    get(alice_api, "/players/bob/ratings")
    get(alice_api, "/leaderboards/standard")
    post(alice_api, f"/matches/{match}/offers", {"kind": "rematch", "version": detail["version"]})
    get(alice_api, "/seeks")
    seek = post(carol_api, "/seeks", {"preset": "classic"})
    get(alice_api, f"/seeks/{seek['id']}")
    post(carol_api, f"/seeks/{seek['id']}/cancel")
    get(alice_api, "/me/push-subscriptions")
    get(carol_api, f"/matches/{match}")  # a finished match, watched
    post(carol_api, "/pool", {"preset": "simple", "target": 50})
    get(carol_api, "/pool")
    contract.check(
        "delete", "/pool", carol_api.client.delete("/api/v1/pool", headers=carol_api._headers(None))
    )
    assert len(contract.checked) >= 25


class _Answer:
    def __init__(self, content: dict[str, Any]) -> None:
        import json

        self.status_code = 200
        self.content = json.dumps(content).encode()


def test_the_check_fails_on_a_field_the_schema_does_not_name(alice, contract: Contract):
    api = Api(token_for(alice))
    me = body(api.get("/me"))
    contract.check("get", "/me", _Answer(me))
    with pytest.raises(AssertionError, match="surprise"):
        contract.check("get", "/me", _Answer({**me, "surprise": 1}))
