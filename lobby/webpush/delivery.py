"""Sending Web Push notifications: after the commit, off the request, with retries.

``send(user_id, notice)`` is called by a subscriber inside the transaction of the change it
announces; it waits for the commit (a rolled-back challenge notifies nobody), then hands the
work to a small pool of threads, so a request or a move never waits for a push service. A
worker skips players who have a page or stream connected (they see it there), encrypts the
payload for each of their devices (``pywebpush``: RFC 8291 aes128gcm, signed with VAPID) and
posts it. A push service that answers 404 or 410 has dropped the subscription: the row goes.
One that answers 5xx or 429, or not at all, is tried again after ``PUSH_RETRY_DELAYS``.

The payload is ``{"title", "body", "url", "tag"}``, in the player's language: names and rules,
never a card. ``wait_idle()`` lets tests (and a shutdown) wait for the queue to drain.
"""

from __future__ import annotations

import contextlib
import json
import logging
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass

import requests
from django.conf import settings
from django.db import close_old_connections, transaction
from django.utils import timezone
from pywebpush import WebPushException, webpush

from lobby import presence
from lobby.models import PushSubscription
from lobby.webpush import endpoints
from lobby.webpush import subscriptions as push

log = logging.getLogger(__name__)

TIMEOUT_SECONDS = 10
# What ``_post`` says of a push it did not send: the push service's name led to an address
# that is not public (``lobby.webpush.endpoints``).
UNREACHABLE = -1
_pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="push")
_pending: set[Future[None]] = set()
_lock = threading.Lock()


@dataclass(frozen=True)
class Notice:
    """One notification: what it says (already in the reader's language) and where a tap
    leads. ``tag``: a newer notice with the same tag replaces the older on the device.
    ``ttl``: seconds the push service keeps it for a device that is offline."""

    title: str
    body: str
    url: str
    tag: str
    ttl: int

    def payload(self) -> str:
        fields = {"title": self.title, "body": self.body, "url": self.url, "tag": self.tag}
        return json.dumps(fields)


def send(user_id: int, notice: Notice) -> None:
    """Notify ``user_id``'s devices of ``notice`` once the current transaction commits."""
    if push.enabled():
        transaction.on_commit(lambda: _submit(user_id, notice))


def _submit(user_id: int, notice: Notice) -> None:
    future = _pool.submit(_deliver_all, user_id, notice)
    with _lock:
        _pending.add(future)
    future.add_done_callback(_forget)


def _forget(future: Future[None]) -> None:
    with _lock:
        _pending.discard(future)


def wait_idle(timeout: float = 30) -> bool:
    """Wait until every queued push has been sent or given up; False on timeout."""
    deadline = time.monotonic() + timeout
    while True:
        with _lock:
            pending = list(_pending)
        if not pending:
            return True
        for future in pending:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            # A failure is logged by the worker; here we only wait for it.
            with contextlib.suppress(Exception):
                future.result(timeout=remaining)


def _deliver_all(user_id: int, notice: Notice) -> None:
    close_old_connections()
    try:
        if presence.is_connected(user_id):
            return
        for subscription in PushSubscription.objects.filter(user_id=user_id):
            _deliver(subscription, notice)
    except Exception:
        log.exception("push to user %s failed", user_id)
    finally:
        close_old_connections()


def _deliver(subscription: PushSubscription, notice: Notice) -> None:
    """Post one encrypted push; retried on 5xx, 429 and timeouts, dropped on 404 and 410."""
    try:
        endpoints.check(subscription.endpoint)
    except endpoints.NotAPushService:
        # Stored before the push services' hosts were the rule: no push service gave it.
        log.warning("push subscription %s is no push service's: removed", subscription.pk)
        subscription.delete()
        return
    delays = list(settings.PUSH_RETRY_DELAYS)
    while True:
        status = _post(subscription, notice)
        if status == UNREACHABLE:
            return
        if status is not None and status < 300:
            PushSubscription.objects.filter(pk=subscription.pk).update(last_sent_at=timezone.now())
            return
        if status in (404, 410):
            log.info("push subscription %s is gone (%s): removed", subscription.pk, status)
            subscription.delete()
            return
        if status is not None and status < 500 and status != 429:
            log.warning("push service refused subscription %s: %s", subscription.pk, status)
            return
        if not delays:
            log.warning("push to subscription %s given up after retries", subscription.pk)
            return
        time.sleep(delays.pop(0))


def _post(subscription: PushSubscription, notice: Notice) -> int | None:
    """The push service's status code (a redirect's too: not followed), None when it did not
    answer in time, UNREACHABLE when its name led to an address the site does not connect to
    (not tried again: a name that resolves to a private address is not a push service)."""
    session = endpoints.PinnedSession()
    try:
        response = webpush(
            subscription_info={
                "endpoint": subscription.endpoint,
                "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
            },
            data=notice.payload(),
            vapid_private_key=settings.VAPID_PRIVATE_KEY,
            vapid_claims={"sub": settings.VAPID_SUBJECT},
            ttl=notice.ttl,
            timeout=TIMEOUT_SECONDS,
            requests_session=session,
        )
    except WebPushException as exc:
        return exc.response.status_code if exc.response is not None else None
    except endpoints.Unreachable as refused:
        log.warning("push to subscription %s not sent: %s", subscription.pk, refused)
        return UNREACHABLE
    except requests.RequestException:
        return None
    finally:
        session.close()
    return int(getattr(response, "status_code", 201))
