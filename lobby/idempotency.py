"""``Idempotency-Key`` for the JSON API: a POST repeated with the same key (by the same player)
gets the first answer again, and nothing is applied twice.

A middleware, because it must see the final response (status and body) exactly as the client
got it. Answers that say nothing about the request itself are not kept, so a retry may still
go through: 401 and 403 (who is asking was not settled), 429 (rate limited) and 5xx.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from contextlib import nullcontext
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import timezone

from ginsite import rows
from ginsite.apikit import ApiError
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


def _error(status: int, code: str, message: str) -> JsonResponse:
    return JsonResponse({"code": code, "message": message}, status=status)


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


def _fingerprint(request: HttpRequest) -> str:
    digest = hashlib.sha256()
    digest.update(request.method.encode() if request.method else b"")
    digest.update(b"\0" + request.get_full_path().encode() + b"\0")
    digest.update(request.body)
    return digest.hexdigest()


def _replay(record: IdempotencyRecord) -> HttpResponse:
    response = HttpResponse(
        bytes(record.body),
        status=record.status or 200,
        content_type=record.content_type or "application/json",
    )
    response["Idempotent-Replayed"] = "true"
    return response


class IdempotencyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        key = request.headers.get(HEADER)
        if request.method != "POST" or key is None or not request.path.startswith(API_PATH):
            return self.get_response(request)
        if not key or len(key) > MAX_KEY or not key.isprintable():
            return _error(
                400, "malformed", f"{HEADER} must be 1 to {MAX_KEY} printable characters."
            )
        user_id = _owner(request)
        if user_id is None:
            return self.get_response(request)  # the API itself answers 401
        fingerprint = _fingerprint(request)
        try:
            record = IdempotencyRecord(user_id=user_id, key=key, fingerprint=fingerprint)
            # One statement, committed on its own: a transaction around it (BEGIN, the INSERT,
            # COMMIT) cost two more round trips on every move. Inside an outer transaction (a
            # test's) a savepoint keeps a taken key from breaking it.
            nested = transaction.get_connection().in_atomic_block
            with transaction.atomic() if nested else nullcontext():
                rows.insert(record)
        except IntegrityError:
            found = IdempotencyRecord.objects.filter(user_id=user_id, key=key).first()
            if found is None:  # purged in between: treat as new next time
                return _error(409, "idempotency_in_progress", "Retry this request.")
            if found.fingerprint != fingerprint:
                return _error(
                    422,
                    "idempotency_key_reused",
                    f"This {HEADER} was already used for a different request.",
                )
            if found.status is not None:
                return _replay(found)
            if timezone.now() - found.created_at < ABANDONED_AFTER:
                return _error(
                    409,
                    "idempotency_in_progress",
                    "A request with this key is still being processed. Retry in a moment.",
                )
            record = found  # the first attempt died; this one takes over its key
        response = self.get_response(request)
        if response.status_code in NOT_KEPT or response.status_code >= 500 or response.streaming:
            record.delete()
            return response
        record.status = response.status_code
        record.content_type = response.get("Content-Type", "")
        record.body = response.content
        rows.update(record, ["status", "content_type", "body"])
        return response


def purge() -> int:
    cutoff = timezone.now() - KEEP
    deleted, _ = IdempotencyRecord.objects.filter(created_at__lt=cutoff).delete()
    return deleted
