"""The published shape of each event's ``data`` (``lobby.api.schemas.Event``), by its type.

Documentation only, as ``games.api.view_schema`` is for a match's view: events are stored
and sent as they are; tests/api/test_answers_match_schema.py checks real ones against this with
every object closed.
"""

from __future__ import annotations

from typing import Any

from games.api.view_schema import VIEW, nullable, obj

PERSON = obj({"username": {"type": "string"}, "display_name": {"type": "string"}})

MATCH = obj(
    {
        "match": {"type": "string"},
        "version": {"type": "integer", "description": "The match's version after the change."},
        "status": {"type": "string"},
        "arena": nullable(
            {"type": "string", "description": "The arena this match is played in; null: none."}
        ),
        "seat": nullable({"type": "integer"}),
        "view": nullable(VIEW),
        "superseded": {"type": "boolean", "description": "A newer event of the match follows."},
    },
    "`match`: one of your matches started or changed.",
    optional=("arena", "seat", "view", "superseded"),
)

RATING = obj(
    {
        "match": {"type": "string"},
        "preset": {"type": "string"},
        "outcome": {"type": "string", "enum": ["rated", "casual", "aborted", "restarted"]},
        "reason": nullable({"type": "string", "enum": ["daily_cap", "ended_early", "restarted"]}),
        "rating": {"type": "integer"},
        "rd": {"type": "integer"},
        "provisional": {"type": "boolean"},
        "display": {"type": "string"},
        "change": {"type": "integer"},
        "glicko_change": {"type": "integer"},
        "limited": nullable({"type": "string", "enum": ["new_accounts"]}),
    },
    "`rating`: a rated match of yours ended, and what it counted for.",
)

PAIRED = obj(
    {
        "match": {"type": "string"},
        "preset": {"type": "string"},
        "target": {"type": "integer"},
        "rated": {"type": "boolean"},
        "days_per_move": nullable({"type": "integer"}),
        "opponent": PERSON,
        "arena": {"type": "string", "description": "The arena that paired you, if one did."},
    },
    "`paired`: quick pairing or an arena seated you.",
    optional=("arena",),
)

ARENA = obj(
    {
        "arena": {"type": "string"},
        "name": {"type": "string"},
        "event": {"type": "string", "enum": ["started", "finished"]},
        "starts_at": {"type": "string", "format": "date-time"},
        "ends_at": {"type": "string", "format": "date-time"},
        "rank": nullable({"type": "integer"}),
    },
    "`arena`: an arena you joined started, or is over (`rank`: your final place).",
)

MESSAGE = obj(
    {
        "match": {"type": "string"},
        "seat": {"type": "integer"},
        "from": nullable({"type": "string"}),
        "message": {"type": "string"},
        "mine": {"type": "boolean"},
    },
    "`message`: a quick message in one of your matches.",
)

MODERATION = obj(
    {
        "id": {"type": "integer"},
        "kind": {"type": "string", "enum": ["warning", "mute", "rated_ban", "report_ban"]},
        "topic": {"type": "string"},
        "lifted": {"type": "boolean"},
        "message": {"type": "string"},
    },
    "`moderation`: a moderator's sanction of you, given or lifted.",
)


KEEPALIVE = obj(
    {
        "type": {"const": "keepalive"},
        "last_seq": {"type": "integer", "description": "The last event number sent."},
    },
    "After 10 seconds of quiet: the stream is alive.",
)

PRESENCE = obj(
    {
        "type": {"const": "presence"},
        "online": {"type": "integer", "description": "How many players are in the lobby."},
        "at": {"type": "string", "format": "date-time"},
    },
    "How many are online, when that changed (at most every 5 seconds; not with "
    "`presence=false`). No `seq`: it is not stored.",
)

# One line of ``GET /events/stream`` (and one frame of ``/ws/events/``): the hello, an event
# (as ``GET /events`` lists them), a keepalive or a presence line.
STREAM_LINE = {
    "oneOf": [
        {"$ref": "#/components/schemas/Hello"},
        {"$ref": "#/components/schemas/Event"},
        KEEPALIVE,
        PRESENCE,
    ]
}


def inlined(model: Any) -> dict[str, Any]:
    """A pydantic model's JSON schema with its definitions put in place of its references."""
    schema = model.model_json_schema()
    defs = schema.pop("$defs", {})

    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            if "$ref" in node:
                return walk(defs[node["$ref"].rsplit("/", 1)[-1]])
            return {k: walk(v) for k, v in node.items()}
        if isinstance(node, list):
            return [walk(v) for v in node]
        return node

    return walk(schema)  # type: ignore[no-any-return]


def data(challenge: dict[str, Any]) -> dict[str, Any]:
    """Every type's ``data``; ``challenge`` the schema of a challenge (``ChallengeOut``)."""
    described = {
        **challenge,
        "description": "`challenge`: a challenge to or from you, as `GET /challenges/{id}` "
        "shows it.",
    }
    return {"anyOf": [MATCH, RATING, PAIRED, MESSAGE, MODERATION, ARENA, described]}
