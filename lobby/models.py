"""Accounts: the profile every user has, holding the display name other players see."""

from __future__ import annotations

import re
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.db.models.signals import post_save
from django.dispatch import receiver
from django.utils.translation import gettext_lazy as _

DISPLAY_NAME_MIN = 2
DISPLAY_NAME_MAX = 24
# Names nobody may take, compared case-insensitively: "Bea" is the computer opponent.
RESERVED_NAMES = frozenset({"bea"})

# A display name must contain at least one letter or digit, not only spaces or punctuation.
HAS_WORD_CHAR = re.compile(r"[^\W_]")


class Profile(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile"
    )
    display_name = models.CharField(_("display name"), max_length=DISPLAY_NAME_MAX)
    # Blank means "no preference": the cookie or the Accept-Language header decides.
    language = models.CharField(_("language"), max_length=8, blank=True, choices=settings.LANGUAGES)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(Lower("display_name"), name="display_name_unique_ci"),
        ]

    def __str__(self) -> str:
        return self.display_name


def display_name_taken(name: str, exclude_user_id: int | None = None) -> bool:
    """Whether another user already has this display name, ignoring case."""
    others = Profile.objects.filter(display_name__iexact=name)
    if exclude_user_id is not None:
        others = others.exclude(user_id=exclude_user_id)
    return others.exists()


def free_display_name(username: str) -> str:
    """A display name derived from the username that nobody has yet: alice, alice2, alice3..."""
    base = username.strip()[: DISPLAY_NAME_MAX - 4]
    if len(base) < DISPLAY_NAME_MIN or not HAS_WORD_CHAR.search(base):
        base = "player"
    candidate = base
    n = 1
    while candidate.lower() in RESERVED_NAMES or display_name_taken(candidate):
        n += 1
        candidate = f"{base}{n}"
    return candidate


def ensure_profile(user: Any) -> Profile:
    """The user's profile, created with a free display name when missing."""
    profile, _created = Profile.objects.get_or_create(
        user=user, defaults={"display_name": free_display_name(user.get_username())}
    )
    return profile


@receiver(post_save, sender=settings.AUTH_USER_MODEL)
def _create_profile(sender: Any, instance: Any, created: bool, **kwargs: Any) -> None:
    # Every user has a profile, however it was created (sign-up, createsuperuser, tests), so
    # templates and games can read user.profile.display_name without checking.
    if created and not kwargs.get("raw"):
        ensure_profile(instance)


def display_name_of(user: Any) -> str:
    """What other players see for this user (allauth's ACCOUNT_USER_DISPLAY, too)."""
    profile = getattr(user, "profile", None)
    return getattr(profile, "display_name", "") or user.get_username()
