"""Moves over the event socket, through the same door as ``POST /matches/{id}/actions``.

A client that holds /ws/events/ open sends::

    {"type": "act", "id": "m17", "match": "<match id>", "version": 12,
     "action": {"type": "discard", "card": "TD"}, "idempotency_key": "<optional>"}

and gets one answer frame, in the order the commands came::

    {"type": "answer", "id": "m17", "status": 200, "body": <MatchDetail>}

``status`` and ``body`` are exactly what the POST answers (the match as the mover now sees
it, or an ``Error``: 400 malformed, 404, 409 stale_version, 422 illegal_move, 429 ...). The
move goes through ``games.api.matches.move`` as the POST's does: confirmed only once it is
committed, its events told to both players as any move's are. An ``idempotency_key`` shares the
POST's
records: a move sent again with the same key, over the socket or over HTTP, gets the first
answer again (``"replayed": true``) and is applied once.

What the socket saves is everything around the move: no connection, no HTTP request to parse,
no middleware, no sign-in by token (the socket signed in once; it closes when its token or
session ends), no GET of the match afterwards (the answer is the mover's view).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import partial
from typing import Any

from pydantic import ValidationError

from games.api.match_schemas import ActionIn
from games.api.matches import move
from ginsite.lib.apikit import ApiError, Refusal, check_rate, malformed, refusal
from ginsite.lib.refusals import Refused
from lobby.events import idempotency
from lobby.events.idempotency import Answer
from lobby.oauth.scopes import PLAY

ENVELOPE = ("type", "id", "match", "idempotency_key")
MAX_ID = 64
Keep = Callable[[Answer], None]


def _frame(ident: Any, status: int, body: bytes, replayed: bool = False) -> str:
    """The answer frame around ``body``, the JSON the POST would have sent, as it is."""
    head = {"type": "answer", "id": ident, "status": status}
    if replayed:
        head["replayed"] = True
    return json.dumps(head)[:-1] + ', "body": ' + body.decode() + "}"


def _refused(ident: Any, refused: Refusal) -> str:
    return _frame(ident, refused.status, json.dumps(refused.body).encode())


def _envelope(frame: dict[str, Any]) -> tuple[str, str | None]:
    """The match and the idempotency key of an ``act`` frame, or ApiError 400."""
    match = frame.get("match")
    if not isinstance(match, str) or not 0 < len(match) <= MAX_ID:
        raise ApiError(400, "malformed", 'An "act" frame names its "match" (the match id).')
    key = frame.get("idempotency_key")
    if key is not None:
        if not isinstance(key, str):
            raise ApiError(400, "malformed", '"idempotency_key" is a string.')
        idempotency.check_key(key)
    return match, key


def _moved(user: Any, match: str, body: dict[str, Any], keep: Keep | None = None) -> Answer:
    """The POST's answer to ``body``, applied as ``user``'s move in ``match``; ``keep`` is
    handed the answer inside the move's transaction."""
    answered: list[Answer] = []

    def settle(detail: dict[str, Any]) -> None:
        # Not validated again on the way out as ninja validates the POST's (its ``Schema``
        # wraps every field in Python: 80 us a move), and encoded by pydantic-core (a quarter
        # of ``json.dumps``'s time), its times written as the POST writes them: the tests
        # hold the two answers equal.
        answered.append(idempotency.move_answer(detail))
        if keep is not None:
            keep(answered[0])

    try:
        move(user, match, ActionIn.model_validate(body), settle)
    except ValidationError as wrong:
        # Where, as the POST says it: inside its body.
        errors = wrong.errors(include_url=False)
        refused = malformed({**e, "loc": ("body", *e["loc"])} for e in errors)
    except (ApiError, Refused) as refusing:
        refused = refusal(refusing)
    else:
        return answered[0]
    return Answer(refused.status, idempotency.CONTENT_TYPE, json.dumps(refused.body).encode())


def act(user: Any, frame: dict[str, Any], scopes: frozenset[str] | None = None) -> str:
    """The answer frame to ``frame``, an ``act`` command of ``user``'s, on a socket opened with
    an app's token of these ``scopes`` (None: a personal token or the session). Runs off the
    event loop (``ginsite.lib.dbwork.in_thread``)."""
    ident = frame.get("id")
    if ident is not None and not (isinstance(ident, str | int) and len(str(ident)) <= MAX_ID):
        ident = None
    try:
        check_rate(user.pk)
        if scopes is not None and PLAY not in scopes:
            raise ApiError(
                403,
                "insufficient_scope",
                'This app was not granted the "play" scope, which a move needs.',
            )
        match, key = _envelope(frame)
        body = {name: value for name, value in frame.items() if name not in ENVELOPE}
        if key is None:
            answer, replayed = _moved(user, match, body), False
        else:
            # The key's record is written in the move's own commit (``idempotency.once``).
            path = f"/api/v1/matches/{match}/actions"
            made = idempotency.content_fingerprint("POST", path, body)
            change = partial(_moved, user, match, body)
            answer, replayed = idempotency.once(user.pk, key, made, change)
    except ApiError as refusing:
        return _refused(ident, refusal(refusing))
    return _frame(ident, answer.status, answer.body, replayed)
