"""A player who joined an arena in advance hears on their device when it starts (Web Push, in
their language), once, whichever worker's sweep tells it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from lobby.arena import service as arenas
from lobby.arena.models import Arena
from tests.lobby.arena_helpers import arena
from tests.lobby.push_service import PushService
from tests.lobby.test_push import _pushes, _subscribe

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_start_reaches_the_device_of_a_player_who_joined_in_advance(
    service: PushService, alice: User
) -> None:
    alice.profile.language = "de"
    alice.profile.save()
    _subscribe(alice, service.device())
    made = arena(starts_in=10)
    arenas.join(alice, made)
    start = timezone.now() - timedelta(seconds=1)
    Arena.objects.filter(pk=made.pk).update(starts_at=start, ends_at=start + timedelta(minutes=30))
    assert [a.pk for a in arenas.started_now()] == [made.pk]
    assert arenas.started_now() == []  # told once
    [received] = _pushes(service, 1)
    assert received.payload["title"] == "Die Arena beginnt: Standard bis 100, 30-Minuten-Arena"
    assert received.payload["url"] == f"/arenas/{made.public_id}/"
