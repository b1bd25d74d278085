"""``Idempotency-Key`` for the JSON API: a POST repeated with the same key (by the same player)
gets the first answer again, and nothing is applied twice.

A middleware, because it must see the final response (status and body) exactly as the client
got it. Answers that say nothing about the request itself are not kept, so a retry may still
go through: 401 and 403 (who is asking was not settled), 429 (rate limited) and 5xx.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from ginsite import rows
from ginsite.apikit import ApiError, error_response
from lobby import tokens
from lobby.models import IdempotencyRecord

HEADER = "Idempotency-Key"
API_PATH = "/api/v1/"
# Promised: at least 24 hours.
KEEP = timedelta(hours=48)
# A first request that never finished (its process died) stops blocking its key after this.
ABANDONED_AFTER = timedelta(minutes=2)
MAX_KEY = 255
NOT_KEPT = {401, 403, 429}


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


def claim(user_id: int, key: str, print_: str) -> IdempotencyRecord | Answer:
    """Take ``key`` for a request of ``user_id`` whose fingerprint is ``print_``: the record to
    ``keep`` its answer in, or the first request's answer to give again. Raises ApiError when
    the key is in use by a request still running (409) or was used for another request (422)."""
    try:
        record = IdempotencyRecord(user_id=user_id, key=key, fingerprint=print_)
        # One statement, committed on its own: a transaction around it (BEGIN, the INSERT,
        # COMMIT) cost two more round trips on every move. Inside an outer transaction (a
        # test's) a savepoint keeps a taken key from breaking it.
        _insert_alone(record)
        return record
    except IntegrityError:
        found = _found(user_id, key)
    if found is None:  # purged in between: treat as new next time
        raise ApiError(409, "idempotency_in_progress", "Retry this request.")
    return _first(found, print_)


def once(
    user_id: int, key: str, print_: str, change: Callable[[Callable[[Answer], None]], Answer]
) -> tuple[Answer, bool]:
    """The answer to a request of ``user_id``'s under ``key``, its change made at most once
    whichever door the key came through (this one or ``claim`` and ``keep``), and whether it
    is the first request's answer given again.

    ``change(keep)`` makes the change and calls ``keep`` with its answer inside the change's
    transaction: the key's record commits with the change, one commit where ``claim`` and
    ``keep`` take three. A change refused (a key already taken among the reasons, as the
    record's insert fails) gives the key's first answer when it has one. Raises ApiError as
    ``claim`` does."""
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
        first.delete()  # abandoned: the key is free again
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
        rows.insert(_record(user_id, key, print_, answer))
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
        rows.insert(record)


def _found(user_id: int, key: str) -> IdempotencyRecord | None:
    return IdempotencyRecord.objects.filter(user_id=user_id, key=key).first()


def _first(found: IdempotencyRecord, print_: str) -> IdempotencyRecord | Answer:
    """What a key's record ``found`` says to a request whose fingerprint is ``print_``: its
    answer, or the record itself when its first request died before answering (the key is
    this one's to take over). Raises ApiError 422 (another request's key) or 409 (its first
    request still runs)."""
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


def keep(record: IdempotencyRecord, answer: Answer) -> None:
    """Keep ``answer`` for the repeats of ``record``'s key; one that says nothing about the
    request itself (401, 403, 429, 5xx) frees the key instead, so a retry may still go through."""
    if answer.status in NOT_KEPT or answer.status >= 500:
        record.delete()
        return
    record.status = answer.status
    record.content_type = answer.content_type
    record.body = answer.body
    rows.update(record, ["status", "content_type", "body"])


def _replay(answer: Answer) -> HttpResponse:
    response = HttpResponse(answer.body, status=answer.status, content_type=answer.content_type)
    response["Idempotent-Replayed"] = "true"
    return response


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
            taken = claim(user_id, key, fingerprint("POST", request.get_full_path(), request.body))
        except ApiError as refused:
            return error_response(refused.status, refused.code, refused.message)
        if isinstance(taken, Answer):
            return _replay(taken)
        response = self.get_response(request)
        if response.streaming:
            taken.delete()
            return response
        content_type = response.get("Content-Type", "")
        keep(taken, Answer(response.status_code, content_type, response.content))
        return response


def purge() -> int:
    cutoff = timezone.now() - KEEP
    deleted, _ = IdempotencyRecord.objects.filter(created_at__lt=cutoff).delete()
    return deleted
