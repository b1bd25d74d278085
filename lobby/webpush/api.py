"""The JSON API of Web Push: a mobile app or a browser registers the device it runs on for
notifications (``lobby.webpush.subscriptions``), lists the player's devices and removes one."""

from __future__ import annotations

from datetime import datetime

from django.http import HttpRequest
from ninja import Field, Router, Schema, Status

from ginsite.lib.apikit import ERRORS, Body, Error, user_of
from lobby.models import PushSubscription
from lobby.webpush import subscriptions as push

router = Router()
# No NUL in any text: the schema says so, as the rest of the API does (ginsite.lib.apikit.Body).
NO_NUL = r"^[^\x00]*$"


class Keys(Body):
    p256dh: str = Field(
        max_length=200, pattern=NO_NUL, description="The browser's P-256 public key, base64url."
    )
    auth: str = Field(
        max_length=100, pattern=NO_NUL, description="The 16-byte auth secret, base64url."
    )


class SubscriptionIn(Body):
    endpoint: str = Field(
        max_length=push.MAX_ENDPOINT_CHARS,
        pattern=NO_NUL,
        description="The push service's URL for this device (https), as the browser gives it.",
    )
    keys: Keys
    device: str = Field(
        "",
        max_length=80,
        pattern=NO_NUL,
        description="A name to tell the device apart; blank: from User-Agent.",
    )


class SubscriptionOut(Schema):
    id: int
    device: str
    created_at: datetime
    last_sent_at: datetime | None


class Devices(Schema):
    enabled: bool = Field(description="False: this site sends no notifications at all.")
    public_key: str = Field(
        description="The VAPID public key to subscribe with (applicationServerKey), base64url."
    )
    subscriptions: list[SubscriptionOut]


def _json(subscription: PushSubscription) -> dict[str, object]:
    return {
        "id": subscription.pk,
        "device": subscription.device,
        "created_at": subscription.created_at,
        "last_sent_at": subscription.last_sent_at,
    }


@router.get("/me/push-subscriptions", response={200: Devices, ERRORS: Error}, tags=["push"])
def list_devices(request: HttpRequest) -> dict[str, object]:
    """The devices that get your notifications, and the key a new one subscribes with."""
    user = user_of(request)
    return {
        "enabled": push.enabled(),
        "public_key": push.public_key(),
        "subscriptions": [_json(s) for s in push.devices(user)],
    }


@router.post(
    "/me/push-subscriptions", response={201: SubscriptionOut, ERRORS: Error}, tags=["push"]
)
def add_device(request: HttpRequest, body: SubscriptionIn) -> Status:
    """Turn notifications on for this device: a challenge, a rematch offer, while none of your
    pages or streams is open. Sending the same endpoint again renews it."""
    user = user_of(request)
    device = body.device or push.device_label(request.headers.get("User-Agent", ""))
    made = push.subscribe(user, body.endpoint, body.keys.p256dh, body.keys.auth, device)
    return Status(201, _json(made))


@router.delete(
    "/me/push-subscriptions/{subscription_id}", response={204: None, ERRORS: Error}, tags=["push"]
)
def remove_device(request: HttpRequest, subscription_id: int) -> Status:
    """Turn notifications off for one of your devices."""
    push.unsubscribe(user_of(request), subscription_id)
    return Status(204, None)
