from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.core.cache import cache
from django.utils import timezone

from lobby.webpush import delivery as push_delivery
from tests.lobby.correspondence_helpers import Clock
from tests.lobby.push_service import PushService, vapid_key


@pytest.fixture(autouse=True)
def _clear_cache() -> Iterator[None]:
    # allauth counts sign-in attempts in the cache; each test starts with no strikes.
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[Clock]:
    """The site's clock (``timezone.now``) frozen now, moved on by the test."""
    frozen = Clock(timezone.now())
    monkeypatch.setattr(timezone, "now", lambda: frozen.now)
    yield frozen


# --- Web Push: a push-service stand-in (``push_service``) and a key to sign with ---------------


@pytest.fixture
def service(settings) -> Iterator[PushService]:  # type: ignore[no-untyped-def]
    settings.VAPID_PRIVATE_KEY = vapid_key()
    # The stand-in is plain http on 127.0.0.1: allowed here alone, by both settings at once
    # (lobby/webpush/endpoints.py), and the environment can set neither.
    settings.PUSH_ALLOW_LOOPBACK_HTTP = True
    settings.PUSH_SERVICE_HOSTS = [*settings.PUSH_SERVICE_HOSTS, "127.0.0.1"]
    settings.PUSH_RETRY_DELAYS = (0.01, 0.01)
    made = PushService()
    yield made
    made.close()
    push_delivery.wait_idle()
