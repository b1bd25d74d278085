"""Small helpers shared by the lobby tests: presence, time travel, htmx posts."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.test import Client
from django.utils import timezone

from games.models import Match
from lobby import presence
from lobby.models import Challenge, Presence

HTMX = {"HTTP_HX_REQUEST": "true"}


def online(*users: Any) -> None:
    """Count these players as in the lobby (as an open lobby page would)."""
    for user in users:
        presence.seen(user, f"test-page-{user.pk}")


def go_quiet(user: Any, seconds: int = 60) -> None:
    """Every page of this player last spoke ``seconds`` ago (its socket died silently)."""
    Presence.objects.filter(user=user).update(last_seen=timezone.now() - timedelta(seconds=seconds))


def age_challenge(challenge: Challenge, seconds: int = 121) -> None:
    Challenge.objects.filter(pk=challenge.pk).update(
        expires_at=timezone.now() - timedelta(seconds=seconds - 120)
    )


def signed_in(client: Client, user: Any) -> Client:
    client.force_login(user)
    return client


def lobby_matches() -> list[Match]:
    return list(Match.objects.filter(kind=Match.Kind.LOBBY))
