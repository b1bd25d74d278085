"""``Idempotency-Key`` for the JSON API: a POST repeated with the same key (by the same player)
gets the first answer again, and nothing is applied twice.

A middleware, because it must see the final response (status and body) exactly as the client
got it. Answers that say nothing about the request itself are not kept, so a retry may still
go through: 401 and 403 (who is asking was not settled), 429 (rate limited) and 5xx.

A key's record commits with the change it answers, or not at all, so a retry after a crash
(kill -9 of the worker between the commit and the answer) gets the committed answer, or finds
nothing made and goes through; it never waits for a record whose request died. A move
(``POST /matches/{id}/actions``, and ``act`` over the event socket) keeps its answer inside
the move's own transaction (``once``); any other POST runs in one transaction with its record
(``_in_one_transaction``), which a second request with the key waits for at its first
statement and then replays. The database ends a dead worker's transaction when its connection
drops, record and change together. Only a record left by the version before this one (which
took the key in a commit of its own) can be "in progress"; it stops blocking its key after
``ABANDONED_AFTER``.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from pydantic_core import to_json

from ginsite.lib.apikit import KEEP_ANSWER, ApiError, ApiJSONEncoder, error_response
from lobby import lookups
from lobby.accounts import tokens
from lobby.models import IdempotencyRecord

HEADER = "Idempotency-Key"
API_PATH = "/api/v1/"
# Promised: at least 24 hours.
KEEP = timedelta(hours=48)
# A record of the version before this one, whose request never finished, stops blocking its
# key after this (this version never commits a record without its answer).
ABANDONED_AFTER = timedelta(minutes=2)
MAX_KEY = 255
NOT_KEPT = {401, 403, 429}
# The move: its answer is kept inside its own transaction (``games.api.matches.move``).
MOVE_PATH = re.compile(r"/api/v1/matches/[^/]+/actions")
# What a move's answer says of itself, kept with the key for either door to replay.
CONTENT_TYPE = "application/json; charset=utf-8"
_POST_ENCODER = ApiJSONEncoder()


def _owner(request: HttpRequest) -> int | None:
    secret = tokens.bearer(request.headers.get("Authorization"))
    if secret is not None:
        try:
            token = tokens.authenticate_request(request, secret)
        except ApiError:  # too many invalid tokens from there: the API itself answers 429
            return None
        return token.user_id if token is not None else None
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return int(user.pk)
    return None


def fingerprint(method: str, path: str, body: bytes) -> str:
    """What a key's request was: its method, path and body. A JSON body counts by its content,
    not its spelling (``content_fingerprint``), so the same move sent again with other spacing,
    or over the event socket, is the same request."""
    try:
        content = json.loads(body) if body else None
    except ValueError:
        return _digest(method, path, body)
    return content_fingerprint(method, path, content)


def content_fingerprint(method: str, path: str, content: Any) -> str:
    """``fingerprint`` of a request whose JSON body is ``content``, already parsed."""
    canonical = json.dumps(content, sort_keys=True, separators=(",", ":")).encode()
    return _digest(method, path, canonical)


def _digest(method: str, path: str, body: bytes) -> str:
    digest = hashlib.sha256()
    digest.update(method.encode() + b"\0" + path.encode() + b"\0")
    digest.update(body)
    return digest.hexdigest()


@dataclass(frozen=True)
class Answer:
    """An answer as the client gets it: status, content type and body."""

    status: int
    content_type: str
    body: bytes


def check_key(key: str) -> None:
    if not key or len(key) > MAX_KEY or not key.isprintable():
        raise ApiError(400, "malformed", f"{HEADER} must be 1 to {MAX_KEY} printable characters.")


def move_answer(detail: dict[str, Any]) -> Answer:
    """A move's answer as ``POST /matches/{id}/actions`` gives it: ``detail`` (the match as the
    mover sees it) in JSON, its times (the match's, at its top level) as the POST's encoder
    writes them and anything else pydantic-core does not know as that encoder does (the tests
    hold the two equal)."""
    times = {k: _POST_ENCODER.default(v) for k, v in detail.items() if isinstance(v, datetime)}
    body = to_json({**detail, **times}, fallback=_POST_ENCODER.default)
    return Answer(200, CONTENT_TYPE, body)


def once(
    user_id: int, key: str, print_: str, change: Callable[[Callable[[Answer], None]], Answer]
) -> tuple[Answer, bool]:
    """The answer to a request of ``user_id``'s under ``key``, its change made at most once
    whichever door the key came through (this one or ``claim`` and ``keep``), and whether it
    is the first request's answer given again.

    ``change(keep)`` makes the change and calls ``keep`` with its answer inside the change's
    transaction: the key's record commits with the change, in one commit. A change refused (a
    key already taken among the reasons, as the record's insert fails) gives the key's first
    answer when it has one. Raises ApiError 422 for a key used for another request, and 409
    while a record of the version before this one holds the key (``_first``)."""
    for _attempt in range(2):  # twice only when a first attempt that died held the key
        answer, kept = _change_kept(user_id, key, print_, change)
        if kept:
            return answer, False
        found = _found(user_id, key)
        if found is None:
            break  # the key is free: this refusal is its answer
        first = _first(found, print_)
        if isinstance(first, Answer):
            return first, True
        first.delete()  # abandoned by the version before: the key is free again
    if answer.status in NOT_KEPT or answer.status >= 500:
        return answer, False
    try:
        _insert_alone(_record(user_id, key, print_, answer))
    except IntegrityError:  # taken meanwhile, by a request that came first
        found = _found(user_id, key)
        first = _first(found, print_) if found is not None else None
        if isinstance(first, Answer):
            return first, True
    return answer, False


def _change_kept(
    user_id: int, key: str, print_: str, change: Callable[[Callable[[Answer], None]], Answer]
) -> tuple[Answer, bool]:
    """``change``'s answer, and whether the key's record committed with it."""
    kept: list[Answer] = []

    def keep(answer: Answer) -> None:
        lookups.insert(_record(user_id, key, print_, answer))
        kept.append(answer)

    answer = change(keep)
    # A refusal after ``keep`` is the change rolled back, its record with it.
    return answer, bool(kept) and answer.status < 400


def _record(user_id: int, key: str, print_: str, answer: Answer) -> IdempotencyRecord:
    return IdempotencyRecord(
        user_id=user_id,
        key=key,
        fingerprint=print_,
        status=answer.status,
        content_type=answer.content_type,
        body=answer.body,
    )


def _insert_alone(record: IdempotencyRecord) -> None:
    nested = transaction.get_connection().in_atomic_block
    with transaction.atomic() if nested else nullcontext():
        lookups.insert(record)


def _found(user_id: int, key: str) -> IdempotencyRecord | None:
    return IdempotencyRecord.objects.filter(user_id=user_id, key=key).first()


def _first(found: IdempotencyRecord, print_: str) -> IdempotencyRecord | Answer:
    """What a key's record ``found`` says to a request whose fingerprint is ``print_``: its
    answer, or the record itself when it has none and its request is long gone (the key is
    this one's to take over). Raises ApiError 422 (another request's key), or 409 for a record
    without an answer younger than ``ABANDONED_AFTER``: one only the version before this one
    wrote, whose request may still run on a worker not yet replaced."""
    if found.fingerprint != print_:
        raise ApiError(
            422,
            "idempotency_key_reused",
            f"This {HEADER} was already used for a different request.",
        )
    if found.status is not None:
        return Answer(found.status, found.content_type or "application/json", bytes(found.body))
    if timezone.now() - found.created_at < ABANDONED_AFTER:
        raise ApiError(
            409,
            "idempotency_in_progress",
            "A request with this key is still being processed. Retry in a moment.",
        )
    return found


def _replay(answer: Answer) -> HttpResponse:
    response = HttpResponse(answer.body, status=answer.status, content_type=answer.content_type)
    response["Idempotent-Replayed"] = "true"
    return response


def _answer_of(response: HttpResponse) -> Answer:
    return Answer(response.status_code, response.get("Content-Type", ""), response.content)


def _kept(answer: Answer) -> bool:
    """Is ``answer`` the key's? Not one that says nothing of the request itself."""
    return answer.status not in NOT_KEPT and answer.status < 500


class IdempotencyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        key = request.headers.get(HEADER)
        if request.method != "POST" or key is None or not request.path.startswith(API_PATH):
            return self.get_response(request)
        try:
            check_key(key)
            user_id = _owner(request)
            if user_id is None:
                return self.get_response(request)  # the API itself answers 401
            print_ = fingerprint("POST", request.get_full_path(), request.body)
            if MOVE_PATH.fullmatch(request.path):
                return self._move(request, user_id, key, print_)
            return self._in_one_transaction(request, user_id, key, print_)
        except ApiError as refused:
            return error_response(refused.status, refused.code, refused.message)

    def _move(self, request: HttpRequest, user_id: int, key: str, print_: str) -> HttpResponse:
        """A move over HTTP, as over the socket: the view hands its answer to the key's record
        inside the move's transaction (``KEEP_ANSWER``), so a committed move has its answer."""
        responses: list[HttpResponse] = []

        def change(keep: Callable[[Answer], None]) -> Answer:
            kept: list[Answer] = []

            def keep_detail(detail: dict[str, Any]) -> None:
                kept.append(move_answer(detail))
                keep(kept[-1])

            setattr(request, KEEP_ANSWER, keep_detail)
            response = self.get_response(request)
            if kept and response.status_code == kept[-1].status:
                # The very bytes the key keeps, so that a repeat gets the same bytes again.
                response.content = kept[-1].body
            responses.append(response)
            return _answer_of(response)

        answer, replayed = once(user_id, key, print_, change)
        return _replay(answer) if replayed else responses[-1]

    def _in_one_transaction(
        self, request: HttpRequest, user_id: int, key: str, print_: str
    ) -> HttpResponse:
        """Any other POST, in one transaction with its key's record: taken first (a second
        request with the key waits for this one's end there), answered last. An answer that
        is not the key's rolls back the change with the record: nothing was made."""
        with transaction.atomic():
            record = IdempotencyRecord(user_id=user_id, key=key, fingerprint=print_)
            if not lookups.insert_new(record):
                found = _found(user_id, key)
                if found is None:  # purged in between: treat as new next time
                    raise ApiError(409, "idempotency_in_progress", "Retry this request.")
                first = _first(found, print_)
                if isinstance(first, Answer):
                    return _replay(first)
                record = first  # abandoned by the version before: this request's now
            response = self.get_response(request)
            if response.streaming:
                record.delete()
            elif _kept(answer := _answer_of(response)):
                record.status = answer.status
                record.content_type = answer.content_type
                record.body = answer.body
                lookups.save_fields(record, ["status", "content_type", "body"])
            else:
                transaction.set_rollback(True)
        return response


def purge() -> int:
    cutoff = timezone.now() - KEEP
    deleted, _ = IdempotencyRecord.objects.filter(created_at__lt=cutoff).delete()
    return deleted
