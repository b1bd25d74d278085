"""A player's e-mail address, as allauth keeps it: one per account, verified by a link.

Rated play, reports and arenas need a verified address (docs/moderation.md): an address is
what makes a throw-away account cost something, and what lets a player who forgot their
password have the account back. An address is private: only its owner sees it (Settings, their
own mail), never another player, the API's public answers, the logs or the events.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from allauth.account.models import EmailAddress


def has_verified_email(user_id: int) -> bool:
    """Whether the player has confirmed an e-mail address by its link."""
    return EmailAddress.objects.filter(user_id=user_id, verified=True).exists()


def verified_owners(email: str, users: Iterable[Any]) -> list[Any]:
    """Those of ``users`` who have verified ``email`` (in any case)."""
    users = list(users)
    verified = set(
        EmailAddress.objects.filter(
            user_id__in=[user.pk for user in users], email__iexact=email, verified=True
        ).values_list("user_id", flat=True)
    )
    return [user for user in users if user.pk in verified]


@dataclass(frozen=True)
class AddressState:
    """What Settings shows: the address mail goes to now, and one waiting for its link."""

    current: EmailAddress | None
    pending: EmailAddress | None


def address_state(user_id: int) -> AddressState:
    addresses = list(EmailAddress.objects.filter(user_id=user_id).order_by("pk"))
    verified = [a for a in addresses if a.verified]
    unverified = [a for a in addresses if not a.verified]
    if verified:
        # A change in progress: the verified address stays until the new one is confirmed.
        return AddressState(current=verified[0], pending=unverified[-1] if unverified else None)
    # Never confirmed: the one address is both what mail goes to and what waits for its link.
    return AddressState(current=unverified[-1] if unverified else None, pending=None)
