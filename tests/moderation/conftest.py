from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest
from django.core.cache import cache

if TYPE_CHECKING:
    from django.contrib.auth.models import User


@pytest.fixture(autouse=True)
def _clear_cache() -> Iterator[None]:
    # The report limit counts in the cache: each test starts with none sent.
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def moderator(django_user_model: type[User]) -> User:
    """mo: a staff account in the "Moderators" group."""
    from tests.moderation.helpers import make_moderator

    return make_moderator(django_user_model, "mo")
