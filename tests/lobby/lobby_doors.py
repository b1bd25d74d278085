"""Every door into a lobby match, through every way in: the lobby page's form posts (without
and with htmx) and the JSON API. A rule of who may start a match is tested through all of
them (``knock``)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.test import Client
from django.utils import timezone

from lobby import services as lobby_services
from lobby.models import Challenge, Seek
from tests.api.conftest import Api, token_for

from .lobby_helpers import HTMX, online

# A challenge sent, a challenge accepted, a seek posted, a seek accepted, quick pairing joined.
DOORS = ("challenge", "accept", "seek", "take_seek", "pool")
WAYS = ("page", "htmx", "api")


def _knocked(way: str, user: Any, page: tuple[str, dict[str, str]], api: tuple[str, Any]) -> Any:
    language = getattr(user, "_test_language", "")
    headers = {"Accept-Language": language} if language else {}
    if way == "api":
        return Api(token_for(user)).post(*api, headers=headers)
    client = Client()
    client.force_login(user)
    return client.post(*page, headers=headers, **(HTMX if way == "htmx" else {}))


def knock(
    way: str, door: str, user: Any, other: Any, *, rated: bool = True, language: str = ""
) -> Any:
    """``user`` tries ``door`` with ``other`` (the challenged, the challenger, the seek's
    poster; nobody for a seek or the pool), with a browser asking for ``language``: the
    answer."""
    user._test_language = language
    online(user, other)
    on = {"rated": "on"} if rated else {}
    if door == "challenge":
        page = ("/lobby/challenges/", {"to": other.username, "preset": "standard", "target": "100"})
        return _knocked(
            way,
            user,
            (page[0], {**page[1], **on}),
            ("/challenges", {"to": other.username, "rated": rated}),
        )
    if door == "accept":
        # Sent before the rule held this player back (a rated challenge to a player who may not
        # play rated is refused when sent).
        sent, _ = Challenge.objects.update_or_create(
            challenger=other,
            challenged=user,
            status=Challenge.Status.OPEN,
            defaults={"expires_at": timezone.now() + timedelta(minutes=2)},
            create_defaults={
                "preset": "standard",
                "target": 100,
                "rated": rated,
                "expires_at": timezone.now() + timedelta(minutes=2),
            },
        )
        return _knocked(
            way,
            user,
            (f"/lobby/challenges/{sent.pk}/accept", {}),
            (f"/challenges/{sent.pk}/accept", None),
        )
    if door == "seek":
        form = {"preset": "standard", "target": "100", **on}
        return _knocked(way, user, ("/lobby/seeks/", form), ("/seeks", {"rated": rated}))
    if door == "take_seek":
        seek = Seek.objects.filter(poster=other, status=Seek.Status.OPEN).first()
        seek = seek or lobby_services.post_seek(other, "standard", 100, rated=rated)
        return _knocked(
            way, user, (f"/lobby/seeks/{seek.pk}/accept", {}), (f"/seeks/{seek.pk}/accept", None)
        )
    assert door == "pool", door
    form = {"tile": "standard:100", **on}
    return _knocked(way, user, ("/lobby/pool/", form), ("/pool", {"rated": rated}))
