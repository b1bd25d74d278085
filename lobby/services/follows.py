"""Following: a player follows another to find them again (the friends list, "friends online"
first in the lobby). A block, either way, overrides it: a blocked or blocking pair cannot
follow, and a follow made before the block is never shown while it lasts (``lobby.people.friends``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from ginsite.lib.after_commit import group_send_after_commit
from ginsite.lib.refusals import NotAllowed, Refused
from lobby.broadcast import user_group
from lobby.models import Block, Follow

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

# A follow changes only the follower's lobby: their friends and their players list.
_FOLLOWER_REGIONS = ["friends", "players"]


def _tell_follower(user: AbstractBaseUser) -> None:
    group_send_after_commit(
        user_group(user.pk), {"type": "lobby.changed", "regions": _FOLLOWER_REGIONS}
    )


def follow(user: AbstractBaseUser, other: AbstractBaseUser) -> None:
    """``user`` follows ``other`` (following twice changes nothing)."""
    if user.pk == other.pk:
        raise Refused(_("You cannot follow yourself."))
    blocks = Block.objects.filter(
        Q(blocker_id=user.pk, blocked_id=other.pk) | Q(blocker_id=other.pk, blocked_id=user.pk)
    ).values_list("blocker_id", flat=True)
    blockers = set(blocks)
    if user.pk in blockers:
        raise NotAllowed(_("You blocked this player. Unblock them first to follow them."))
    if blockers:
        # Worded like any other refusal: a blocked player learns nothing of the block.
        raise NotAllowed(_("You cannot follow this player."))
    try:
        with transaction.atomic():
            Follow.objects.get_or_create(follower=user, followed=other)
            _tell_follower(user)
    except IntegrityError:
        pass  # two clicks at once: the other one made it


def unfollow(user: AbstractBaseUser, other: AbstractBaseUser) -> None:
    """``user`` no longer follows ``other`` (not following changes nothing)."""
    with transaction.atomic():
        if Follow.objects.filter(follower=user, followed=other).delete()[0]:
            _tell_follower(user)


def follows(user: AbstractBaseUser, other: AbstractBaseUser) -> bool:
    return Follow.objects.filter(follower=user, followed=other).exists()
