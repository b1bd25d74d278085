"""Blocks: a player takes no more challenges from another, and neither sees the other in the
lobby (``presence.hidden_from``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from games.services import lock_players
from ginsite.lib.refusals import Refused
from lobby.broadcast import publish
from lobby.events import feeds as event_feeds
from lobby.models import Block, Challenge

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser


def block(user: AbstractBaseUser, other: AbstractBaseUser) -> None:
    """``user`` takes no more challenges from ``other``; open ones between them are cancelled."""
    if user.pk == other.pk:
        raise Refused(_("You cannot block yourself."))
    now = timezone.now()
    with transaction.atomic():
        # The two players first, as every change of their challenges takes them (see pairing).
        lock_players([user.pk, other.pk])
        Block.objects.get_or_create(blocker=user, blocked=other)
        Challenge.objects.filter(status=Challenge.Status.OPEN).filter(
            Q(challenger=user, challenged=other) | Q(challenger=other, challenged=user)
        ).update(status=Challenge.Status.CANCELLED, answered_at=now)
        publish(["players", "challenges", "seeks"])
        event_feeds.challenges_closed_at(now)


def unblock(user: AbstractBaseUser, other: AbstractBaseUser) -> None:
    with transaction.atomic():
        Block.objects.filter(blocker=user, blocked=other).delete()
        publish(["players", "seeks"])


def has_blocked(user: AbstractBaseUser, other: AbstractBaseUser) -> bool:
    return Block.objects.filter(blocker=user, blocked=other).exists()
