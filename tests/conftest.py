from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from django.contrib.auth.models import User

PASSWORD = "correct horse battery staple"


def _make_user(django_user_model: type[User], username: str) -> User:
    return django_user_model.objects.create_user(username=username, password=PASSWORD)


@pytest.fixture
def password() -> str:
    """The password every fixture user logs in with."""
    return PASSWORD


@pytest.fixture
def alice(django_user_model: type[User]) -> User:
    return _make_user(django_user_model, "alice")


@pytest.fixture
def bob(django_user_model: type[User]) -> User:
    return _make_user(django_user_model, "bob")


@pytest.fixture
def carol(django_user_model: type[User]) -> User:
    return _make_user(django_user_model, "carol")
