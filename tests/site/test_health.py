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


# A balancer may be pointed at any of the formats django-health-check offers; Atom, RSS and
# OpenMetrics answered 200 while a check failed (issue 28), so they are refused outright.
REFUSED_FORMATS = ("openmetrics", "atom", "rss", "yaml")
REFUSED_TYPES = ("application/openmetrics-text", "application/atom+xml", "application/rss+xml")


def _cache_down(settings) -> None:  # type: ignore[no-untyped-def]
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": NOWHERE}
    }


@pytest.mark.parametrize("fmt", REFUSED_FORMATS)
def test_no_format_answers_200_while_the_cache_is_down(settings, fmt: str) -> None:  # type: ignore[no-untyped-def]
    _cache_down(settings)
    response = Client().get("/health/", {"format": fmt})
    assert response.status_code == 406
    assert b"200 when healthy and 500 when not" in response.content


@pytest.mark.parametrize("media_type", REFUSED_TYPES)
def test_no_accepted_type_answers_200_while_the_channel_layer_is_down(
    settings, media_type: str
) -> None:  # type: ignore[no-untyped-def]
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [NOWHERE]},
        }
    }
    response = Client().get("/health/", headers={"Accept": media_type})
    assert response.status_code == 406


@pytest.mark.parametrize(
    ("query", "accept"),
    [
        ({"format": "json"}, "*/*"),
        ({"format": "text"}, "*/*"),
        ({}, "text/plain"),
        ({}, "text/html"),
    ],
)
def test_the_formats_served_say_500_while_the_cache_is_down(settings, query, accept) -> None:  # type: ignore[no-untyped-def]
    _cache_down(settings)
    assert Client().get("/health/", query, headers={"Accept": accept}).status_code == 500


@pytest.mark.parametrize("fmt", REFUSED_FORMATS)
def test_the_refused_formats_are_refused_while_healthy_too(fmt: str) -> None:
    # A balancer set up with one of them fails at once, not on the day Redis goes down.
    assert Client().get("/health/", {"format": fmt}).status_code == 406
    assert Client().get("/health/", {"format": "text"}).status_code == 200
