"""The schema says exactly what the server accepts (issue 39, finding 8): every request body is
an object whose schema names all its fields (``additionalProperties: false``, nested objects
too), and the server refuses a field it does not name and a loose type (``"1"`` for a number,
``0`` for a boolean) as malformed, on every operation that takes a body. Before,
``POST /matches/{id}/messages`` took unknown fields and ``{"muted": 0}``. Walked from the
published schema, so an operation added later is held to it too."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import Api, body

pytestmark = pytest.mark.django_db

# Path parameters that name nothing: the body is checked before anything is looked up.
FILL = {"match_id": "n0such1d", "offer_id": "1", "answer": "accept", "challenge_id": "1"}
FILL |= {"seek_id": "1", "username": "nobody", "hand_number": "1", "device_id": "1"}


def _schema(api: Api) -> dict[str, Any]:
    return body(api.get("/openapi.json"))


def _resolve(schema: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        node = schema["components"]["schemas"][node["$ref"].rsplit("/", 1)[-1]]
    return node


def _bodies(schema: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    found = []
    for path, operations in schema["paths"].items():
        for operation in operations.values():
            content = operation.get("requestBody", {}).get("content", {})
            if "application/json" in content:
                target = path.removeprefix("/api/v1").format(**FILL)
                found.append((target, _resolve(schema, content["application/json"]["schema"])))
    return found


def _objects(schema: dict[str, Any], node: dict[str, Any], seen: set[int]) -> list[dict]:  # type: ignore[type-arg]
    """``node`` and every object schema inside it."""
    node = _resolve(schema, node)
    if id(node) in seen:
        return []
    seen.add(id(node))
    found = [node] if node.get("type") == "object" or "properties" in node else []
    children = list(node.get("properties", {}).values())
    for key in ("anyOf", "oneOf", "allOf"):
        children += node.get(key, [])
    for child in children:
        found += _objects(schema, child, seen)
    return found


def _errors_at(response: Any, field: str) -> list[str]:
    assert response.status_code == 400, response.content
    answer = body(response)
    assert answer["code"] == "malformed"
    return [e["type"] for e in answer["errors"] if e["loc"] and e["loc"][-1] == field]


def test_there_are_bodies_to_check(alice_api: Api) -> None:
    paths = {path for path, _body in _bodies(_schema(alice_api))}
    assert "/matches/n0such1d/messages" in paths and "/matches/n0such1d/messages/mute" in paths
    assert len(paths) >= 13


def test_every_body_schema_names_all_its_fields(alice_api: Api) -> None:
    schema = _schema(alice_api)
    loose = [
        (path, node.get("title"))
        for path, top in _bodies(schema)
        for node in _objects(schema, top, set())
        if node.get("additionalProperties") is not False
    ]
    assert loose == []


def test_every_body_refuses_a_field_it_does_not_name(alice_api: Api) -> None:
    for path, _top in _bodies(_schema(alice_api)):
        refused = alice_api.post(path, {"not_a_field": 1})
        assert "extra_forbidden" in _errors_at(refused, "not_a_field"), path


def test_every_number_and_boolean_is_strict(alice_api: Api) -> None:
    checked = 0
    for path, top in _bodies(schema := _schema(alice_api)):
        for name, prop in top.get("properties", {}).items():
            kinds = {_resolve(schema, p).get("type") for p in prop.get("anyOf", [prop])}
            if enum := prop.get("enum"):
                kinds |= {type(v).__name__ for v in enum}
            for kind, loose in (("integer", "1"), ("int", "1"), ("boolean", 0)):
                if kind in kinds:
                    assert _errors_at(alice_api.post(path, {name: loose}), name), (path, name)
                    checked += 1
    assert checked >= 20  # versions, targets, days, rated, hints, muted, replace...
