"""The tests' password hasher (tests/settings.py): Django's PBKDF2 with few rounds."""

from __future__ import annotations

from django.contrib.auth.hashers import PBKDF2PasswordHasher


class FewRoundsPBKDF2(PBKDF2PasswordHasher):
    """``pbkdf2_sha256`` hashes any Django site checks (the rounds are in the hash), made in
    about a thousandth of the time."""

    iterations = 1_000
