"""Web Push subscriptions: the devices a player turned notifications on for.

A browser subscribes with the site's VAPID public key and hands us what its push service gave
it: an endpoint (where the site posts a push) and two keys (what the payload is encrypted
with). Everything here is checked before a row is stored, since the server will later post to
that endpoint: a push service's URL (``lobby.webpush.endpoints``: the abuse case and its rules),
keys of the right kind and size. Sending is ``lobby.webpush.delivery``; what is sent when is
``lobby.webpush.notifications``.
"""

from __future__ import annotations

import base64
import binascii
import re
from functools import cache
from typing import TYPE_CHECKING

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from ginsite.lib.refusals import Conflict, NotFound, Refused
from lobby.models import PushSubscription
from lobby.webpush import endpoints

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

MAX_DEVICES = 10
MAX_ENDPOINT_CHARS = 2000


class BadSubscription(Refused, code="bad_subscription"):
    """An endpoint or keys no browser's push service would give."""


class PushOff(Refused, status=409, code="push_off"):
    """This site has no VAPID key: it sends no notifications."""


def enabled() -> bool:
    """Whether this site sends pushes at all (a VAPID key is configured)."""
    return bool(settings.VAPID_PRIVATE_KEY)


@cache
def _public_key(private_key: str) -> str:
    number = int.from_bytes(_b64decode(private_key), "big")
    public = ec.derive_private_key(number, ec.SECP256R1()).public_key()
    raw = public.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def public_key() -> str:
    """The VAPID public key browsers subscribe with (base64url), "" when pushes are off."""
    return _public_key(settings.VAPID_PRIVATE_KEY) if enabled() else ""


def _b64decode(text: str) -> bytes:
    if not re.fullmatch(r"[A-Za-z0-9_-]+={0,2}", text or ""):
        raise ValueError("not base64url")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _check_endpoint(endpoint: str) -> None:
    if not endpoint or len(endpoint) > MAX_ENDPOINT_CHARS:
        raise BadSubscription(_("The endpoint must be a URL of at most 2000 characters."))
    try:
        endpoints.check(endpoint)
    except endpoints.NotHttps:
        raise BadSubscription(_("The endpoint must be an https URL of a push service.")) from None
    except endpoints.NotAPushService:
        raise BadSubscription(
            _("Notifications go through the browsers' push services only, and that is not one.")
        ) from None


KEYS = gettext_noop(
    "keys.p256dh must be a P-256 public key (65 bytes) and keys.auth 16 bytes, in base64url."
)


def _check_keys(p256dh: str, auth: str) -> None:
    try:
        point = _b64decode(p256dh)
        secret = _b64decode(auth)
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except (ValueError, binascii.Error, TypeError):
        raise BadSubscription(_(KEYS)) from None
    if len(point) != 65 or len(secret) != 16:
        raise BadSubscription(_(KEYS))


def device_label(user_agent: str) -> str:
    """ "Firefox on Android": enough for a player to tell their devices apart."""
    agent = user_agent or ""
    browser = next(
        (
            name
            for name, mark in (
                ("Edge", "Edg/"),
                ("Opera", "OPR/"),
                ("Firefox", "Firefox/"),
                ("Chrome", "Chrome/"),
                ("Safari", "Safari/"),
            )
            if mark in agent
        ),
        "",
    )
    system = next(
        (
            name
            for name, mark in (
                ("Android", "Android"),
                ("iOS", "iPhone"),
                ("iPadOS", "iPad"),
                ("Windows", "Windows"),
                ("macOS", "Mac OS X"),
                ("Linux", "Linux"),
            )
            if mark in agent
        ),
        "",
    )
    if browser and system:
        return f"{browser} on {system}"
    return browser or system or "A browser"


def subscribe(
    user: AbstractBaseUser, endpoint: str, p256dh: str, auth: str, device: str = ""
) -> PushSubscription:
    """Store (or renew) ``user``'s subscription. A browser's endpoint belongs to whoever
    subscribed with it last: the same browser signed in as someone else moves over."""
    if not enabled():
        raise PushOff(_("This site does not send notifications."))
    _check_endpoint(endpoint)
    _check_keys(p256dh, auth)
    with transaction.atomic():
        others = PushSubscription.objects.select_for_update().filter(user=user)
        if len(others.exclude(endpoint=endpoint)) >= MAX_DEVICES:
            raise Conflict(
                _("At most %(count)s devices get notifications: remove one first.")
                % {"count": MAX_DEVICES}
            )
        subscription, _created = PushSubscription.objects.update_or_create(
            endpoint=endpoint,
            defaults={"user": user, "p256dh": p256dh, "auth": auth, "device": device[:80]},
        )
    return subscription


def unsubscribe(user: AbstractBaseUser, pk: int) -> None:
    """Remove one of ``user``'s devices; another player's (or none) is not found."""
    deleted, _by_model = PushSubscription.objects.filter(user=user, pk=pk).delete()
    if not deleted:
        raise NotFound(_("No such device."))


def devices(user: AbstractBaseUser) -> list[PushSubscription]:
    return list(PushSubscription.objects.filter(user=user))
