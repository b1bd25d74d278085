"""How long the moderation room keeps what it keeps about people (docs/moderation.md).

A sign-up address is kept SIGNUP_ADDRESS_DAYS days, long enough to see a farm of accounts made
from one address in the weeks it plays, and then forgotten (``forget_old_addresses``, run by
the nightly ``find_suspicious``). Reports, sanctions and the moderators' log are kept as long
as the accounts they name (deleting an account deletes them).
"""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from .models import SignupAddress

SIGNUP_ADDRESS_DAYS = 90


def forget_old_addresses() -> int:
    cutoff = timezone.now() - timedelta(days=SIGNUP_ADDRESS_DAYS)
    deleted, _ = SignupAddress.objects.filter(created_at__lt=cutoff).delete()
    return deleted
