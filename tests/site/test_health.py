"""/health/ for load balancers: 200 while the database, the cache and the channel layer answer,
500 as soon as one does not."""

from __future__ import annotations

import json

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

NOWHERE = "redis://127.0.0.1:1/0"  # nothing listens on port 1


def _health() -> tuple[int, dict[str, str]]:
    response = Client().get("/health/", headers={"Accept": "application/json"})
    return response.status_code, json.loads(response.content)


def _status_of(report: dict[str, str], check: str) -> str:
    (status,) = [v for k, v in report.items() if k.startswith(check + "(")]
    return status


def test_it_is_healthy_when_everything_answers() -> None:
    status, report = _health()
    assert status == 200
    for check in ("Database", "Cache", "ChannelLayer"):
        assert _status_of(report, check) == "OK"


def test_it_is_unhealthy_when_the_channel_layer_does_not_answer(settings) -> None:  # type: ignore[no-untyped-def]
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [NOWHERE]},
        }
    }
    status, report = _health()
    assert status == 500
    assert _status_of(report, "ChannelLayer") != "OK"
    assert _status_of(report, "Database") == "OK"


def test_it_is_unhealthy_when_the_cache_does_not_answer(settings) -> None:  # type: ignore[no-untyped-def]
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": NOWHERE}
    }
    status, report = _health()
    assert status == 500
    assert _status_of(report, "Cache") != "OK"


def test_it_answers_over_plain_http_while_everything_else_is_redirected(settings) -> None:  # type: ignore[no-untyped-def]
    settings.SECURE_SSL_REDIRECT = True
    assert Client().get("/lobby/").status_code == 301
    assert Client().get("/health/").status_code == 200
