"""The distributed setup: PostgreSQL from DATABASE_URL, the Redis channel layer from REDIS_URL.

Skipped when those are unset, unless GIN_DISTRIBUTED=1 (CI's second pass), where a missing
variable is a failure: that pass exists to prove these tests ran.
"""

from __future__ import annotations

import asyncio
import os

import pytest
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection

pytestmark = pytest.mark.distributed

_MISSING = [name for name in ("DATABASE_URL", "REDIS_URL") if not os.environ.get(name)]
_REQUIRED = os.environ.get("GIN_DISTRIBUTED", "").strip().lower() in {"1", "true", "yes", "on"}


@pytest.fixture(autouse=True)
def _needs_distributed_setup() -> None:
    if not _MISSING:
        return
    message = f"distributed tests need {' and '.join(_MISSING)}"
    if _REQUIRED:
        pytest.fail(f"GIN_DISTRIBUTED is set but {message}")
    pytest.skip(message)


@pytest.mark.django_db
def test_it_uses_postgresql() -> None:
    assert connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)


def test_it_uses_the_redis_channel_layer() -> None:
    backend = settings.CHANNEL_LAYERS["default"]["BACKEND"]
    assert backend == "channels_redis.pubsub.RedisPubSubChannelLayer"


@pytest.mark.asyncio
async def test_it_delivers_a_group_message_through_redis() -> None:
    layer = get_channel_layer()
    assert layer is not None
    group = f"test-{os.getpid()}"
    channel = await layer.new_channel()
    await layer.group_add(group, channel)
    try:
        await layer.group_send(group, {"type": "match.updated", "version": 3})
        message = await asyncio.wait_for(layer.receive(channel), timeout=5)
    finally:
        await layer.group_discard(group, channel)
    assert message == {"type": "match.updated", "version": 3}
