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
        nested = transaction.get_connection().in_atomic_block
        with transaction.atomic() if nested else nullcontext():
            rows.insert(record)
        return record
    except IntegrityError:
        found = IdempotencyRecord.objects.filter(user_id=user_id, key=key).first()
    if found is None:  # purged in between: treat as new next time
        raise ApiError(409, "idempotency_in_progress", "Retry this request.")
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
    return found  # the first attempt died; this one takes over its key


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
