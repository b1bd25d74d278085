"""A waiting player's "Play now" tile says how far from their rating an opponent is looked for,
and that range widens while they wait: the sweep pushes the tile again as it grows (in the
reader's language), so the open lobby page never shows a stale range."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from django.contrib.auth.models import User
from django.core.cache import cache
from django.utils import timezone

from lobby.models import PoolEntry
from lobby.pool import service as pool
from lobby.pool import service as pool_service
from lobby.ratings.models import Rating
from lobby.routing import websocket_urlpatterns
from tests.sockets import Socket

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@database_sync_to_async
def _waiting_beside_carol(alice: User, carol: User, language: str) -> None:
    """Carol waits for the same game out of anyone's reach; alice joined 16 s ago."""
    Rating.objects.create(user=carol, preset="standard", rating=2100, rd=80)
    now = timezone.now()
    pool_service.join_pool(carol, "standard", 100, now=now - timedelta(seconds=60))
    pool_service.join_pool(alice, "standard", 100, now=now - timedelta(seconds=16))
    alice.profile.language = language
    alice.profile.save()


@database_sync_to_async
def _time_passes(alice: User, carol: User) -> list[int]:
    """Nine more seconds of waiting for alice, and the sweep's telling since the last one."""
    now = timezone.now()
    PoolEntry.objects.filter(user=alice).update(joined_at=now - timedelta(seconds=25))
    cache.set(pool._TOLD_AT, now - timedelta(seconds=9))
    return pool.tell_widened(now)


async def _tile(page: Socket) -> str:
    while True:
        frame = await page.receive_from()
        if 'id="lobby-pool"' in frame:
            return frame[frame.index('id="lobby-pool"') :].split("</section>")[0]


@pytest.mark.parametrize(
    ("language", "why"),
    [
        ("en", r"not within ±(\d+) of your rating 1500 yet"),
        ("de", r"noch nicht innerhalb von ±(\d+) deiner Wertung 1500"),
    ],
)
async def test_the_tile_is_pushed_again_as_the_range_widens(
    alice: User, carol: User, language: str, why: str
) -> None:
    await _waiting_beside_carol(alice, carol, language)
    page = Socket(URLRouter(websocket_urlpatterns), "/ws/lobby/")
    page.scope["user"] = alice
    assert (await page.connect())[0]
    first = re.search(why, await _tile(page))
    assert first is not None and 300 <= int(first.group(1)) < 400  # 16 s: about ±313

    told = await _time_passes(alice, carol)
    # Alice's range grew past 350 and 400 since the last telling; carol's stopped at ±500
    # long ago, so her tile is not pushed again.
    assert told == [alice.pk]
    pushed = re.search(why, await _tile(page))
    assert pushed is not None and 400 <= int(pushed.group(1)) < 500  # 25 s: about ±433
    await page.disconnect()
