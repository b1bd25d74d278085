"""Make the VAPID key pair the site signs its Web Push notifications with (README,
"Configuration"): prints the environment lines to keep with the site's other secrets."""

from __future__ import annotations

import base64
from typing import Any

from django.core.management.base import BaseCommand
from py_vapid import Vapid02


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


class Command(BaseCommand):
    help = (
        "Print a new VAPID private key for VAPID_PRIVATE_KEY (base64url). Browsers subscribe "
        "with its public key, which the site derives from it; changing the key makes every "
        "device turn notifications on again."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        vapid = Vapid02()
        vapid.generate_keys()
        number = vapid.private_key.private_numbers().private_value
        self.stdout.write(f"VAPID_PRIVATE_KEY={_b64(number.to_bytes(32, 'big'))}")
        self.stdout.write("VAPID_SUBJECT=mailto:you@example.org")
