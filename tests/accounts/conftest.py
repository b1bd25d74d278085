from __future__ import annotations

import re
import time
from collections.abc import Iterator
from types import SimpleNamespace

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth.models import User
from django.core import mail
from django.core.cache import cache
from django.test import Client

from tests.conftest import PASSWORD


@pytest.fixture(autouse=True)
def _clear_cache() -> Iterator[None]:
    """allauth's rate limits and axes' failures live in the cache: each test starts afresh."""
    cache.clear()
    yield
    cache.clear()


class Clock:
    """allauth's rate limits' clock, standing still until a test moves it on."""

    def __init__(self) -> None:
        self.now = time.time()

    def time(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def allauth_clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    """Moves allauth's rate-limit windows on without waiting (its lock keeps the real clock)."""
    from allauth.core.internal import ratelimit

    clock = Clock()
    fake = SimpleNamespace(time=clock.time, monotonic=time.monotonic, sleep=time.sleep)
    monkeypatch.setattr(ratelimit, "time", fake)
    return clock


def give_address(user: User, email: str, *, verified: bool) -> EmailAddress:
    """An address as allauth keeps it, primary, and the user's e-mail field to match."""
    EmailAddress.objects.filter(user=user).delete()  # the fixture players' own, if any
    user.email = email
    user.save(update_fields=["email"])
    return EmailAddress.objects.create(user=user, email=email, primary=True, verified=verified)


def _without_address(django_user_model: type[User], username: str) -> User:
    return django_user_model.objects.create_user(username=username, password=PASSWORD)


# These tests are about the address itself: their players start without one (elsewhere the
# fixture players have a verified address, as rated play needs).
@pytest.fixture
def alice(django_user_model: type[User]) -> User:
    return _without_address(django_user_model, "alice")


@pytest.fixture
def bob(django_user_model: type[User]) -> User:
    return _without_address(django_user_model, "bob")


@pytest.fixture
def carol(django_user_model: type[User]) -> User:
    return _without_address(django_user_model, "carol")


def mails_to(address: str) -> list[mail.EmailMessage]:
    return [m for m in mail.outbox if address in m.to]


def link_in(message: mail.EmailMessage) -> str:
    """The path of the one link in a mail (the site's own, with the test server's host)."""
    urls = re.findall(r"https?://testserver(/\S+)", str(message.body))
    assert len(urls) == 1, message.body
    return urls[0]


def sign_in(client: Client, username: str, password: str) -> None:
    """Through the real form, as a player does (allauth records when, for re-authentication)."""
    response = client.post("/accounts/login/", {"login": username, "password": password})
    assert response.status_code == 302, response.content.decode()[:500]
