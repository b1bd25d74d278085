"""A player's e-mail address, as allauth keeps it: one per account, verified by a link.

Rated play, reports and arenas need a verified address (docs/moderation.md): an address is
what makes a throw-away account cost something, and what lets a player who forgot their
password have the account back.
"""

from __future__ import annotations

from allauth.account.models import EmailAddress


def has_verified_email(user_id: int) -> bool:
    """Whether the player has confirmed an e-mail address by its link."""
    return EmailAddress.objects.filter(user_id=user_id, verified=True).exists()
