"""The sign-up and sign-in limits answer an app in JSON, as the API does (`rate_limited`), and
a browser with the site's page."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import Client

pytestmark = pytest.mark.django_db

JSON = {"Accept": "application/json"}
BROWSER = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}


def _over_the_signup_limit(headers: dict[str, str]):  # type: ignore[no-untyped-def]
    client = Client()
    for n in range(20):
        tried = client.post("/accounts/signup/", {"username": f"x{n}"}, headers=headers)
        assert tried.status_code in (200, 400)  # the form again with its errors (JSON: 400)
    return client.post("/accounts/signup/", {"username": "x21"}, headers=headers)


def test_an_app_gets_json_past_the_signup_limit():
    cache.clear()
    answer = _over_the_signup_limit(JSON)
    assert answer.status_code == 429
    assert answer["Content-Type"].startswith("application/json")
    assert answer.json()["code"] == "rate_limited"
    assert "too often" in answer.json()["message"]


def test_a_browser_gets_the_page_past_the_signup_limit():
    cache.clear()
    answer = _over_the_signup_limit(BROWSER)
    assert answer.status_code == 429
    assert answer["Content-Type"].startswith("text/html")
    assert b"Too many requests" in answer.content


def test_an_app_gets_json_for_a_locked_name(alice, settings):
    cache.clear()
    settings.AXES_FAILURE_LIMIT = 2
    client = Client()
    for _ in range(3):
        answer = client.post(
            "/accounts/login/", {"login": "alice", "password": "wrong"}, headers=JSON
        )
    assert answer.status_code == 429 and answer.json()["code"] == "rate_limited"
    assert int(answer["Retry-After"]) > 0
