"""Web Push (issue 26): a player's devices hear of a challenge or a rematch offer while none of
their pages or streams is open. The push service is a stand-in (``push_service``) that decrypts
each push with the subscription's keys, as the browser behind a real one would."""

from __future__ import annotations

import base64
import json
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from py_vapid import Vapid02

from games import services as game_services
from lobby import presence
from lobby import services as lobby_services
from lobby.models import Presence, PushSubscription
from lobby.services.follows import follow
from lobby.webpush import delivery as push_delivery
from lobby.webpush import subscriptions as push
from tests.games.conftest import ALICE_KNOCKS, stacked
from tests.games.live_helpers import lobby_match
from tests.lobby.lobby_helpers import online
from tests.lobby.push_service import Device, PushService, vapid_key

pytestmark = pytest.mark.django_db(transaction=True)

API = "/api/v1/me/push-subscriptions"
BOB_HAND = "4S 7H TC 6C JD QD 8D 9S KS 3D"


def _subscribe(user: User, device: Device) -> PushSubscription:
    client = Client()
    client.force_login(user)
    answer = client.post(API, device.as_json(), content_type="application/json")
    assert answer.status_code == 201, answer.content
    return PushSubscription.objects.get(pk=answer.json()["id"])


def _pushes(service: PushService, count: int) -> list:  # type: ignore[type-arg]
    assert push_delivery.wait_idle()
    return service.wait_for(count)


# --- Delivery -------------------------------------------------------------------------------------


def test_a_challenge_reaches_the_device_of_a_player_with_no_page_open(
    service: PushService, alice: User, bob: User
) -> None:
    _subscribe(alice, service.device())
    presence.seen_over_http(alice)  # in the lobby through a request, no page open
    online(bob)
    lobby_services.challenge(bob, alice, "classic", 250)
    [received] = _pushes(service, 1)
    assert received.payload["title"] == "bob challenges you"
    assert received.payload["body"] == "Classic to 250 points: accept or decline it in the lobby."
    assert received.payload["url"] == "/lobby/"
    # Kept by the push service for as long as the challenge is open (two minutes), signed
    # with the site's key, encrypted for the device.
    assert 100 <= int(received.headers["ttl"]) <= 120
    assert received.headers["content-encoding"] == "aes128gcm"
    assert f"k={push.public_key()}" in received.headers["authorization"]
    assert b"bob" not in received.body


def test_a_rematch_offer_is_pushed_once_in_the_players_language_without_a_card(
    service: PushService, alice: User, bob: User
) -> None:
    bob.profile.language = "de"
    bob.profile.save()
    _subscribe(bob, service.device())
    match = lobby_match(alice, bob, stacked(ALICE_KNOCKS, BOB_HAND, "QC", "2D"))
    game_services.submit(match, 0, {"type": "take_upcard"}, match.version)
    game_services.resign(match, 1, match.version)
    game_services.make_offer(match, 0, "rematch", match.version)
    [received] = _pushes(service, 1)
    assert received.payload["title"] == "alice bietet eine Revanche an"
    assert received.payload["url"] == f"/games/{match.public_id}/"
    text = json.dumps(received.payload)
    for code in (ALICE_KNOCKS + " " + BOB_HAND + " QC 2D").split():
        assert not re.search(rf"\b{code}\b", text), code
    assert push_delivery.wait_idle()
    assert len(service.received) == 1


def test_a_challenge_from_a_followed_player_says_so(
    service: PushService, alice: User, bob: User
) -> None:
    _subscribe(alice, service.device())
    online(alice, bob)
    follow(alice, bob)
    Presence.objects.filter(user=alice).delete()
    presence.seen_over_http(alice)
    lobby_services.challenge(bob, alice, "standard", 100)
    [received] = _pushes(service, 1)
    assert received.payload["title"] == "bob, whom you follow, challenges you"


def test_nothing_is_pushed_while_a_page_of_the_player_is_connected(
    service: PushService, alice: User, bob: User, carol: User
) -> None:
    _subscribe(alice, service.device())
    online(alice, bob, carol)  # alice's lobby page is open: she sees the challenge there
    lobby_services.challenge(bob, alice, "standard", 100)
    assert push_delivery.wait_idle()
    assert service.received == []
    # Her page closed long ago; a request of hers still keeps her in the lobby.
    Presence.objects.filter(user=alice).delete()
    presence.seen_over_http(alice)
    lobby_services.challenge(carol, alice, "standard", 100)
    [received] = _pushes(service, 1)
    assert received.payload["title"] == "carol challenges you"


@pytest.mark.parametrize("gone", [404, 410])
def test_a_subscription_the_service_says_is_gone_is_deleted(
    service: PushService, alice: User, bob: User, gone: int
) -> None:
    _subscribe(alice, service.device())
    service.answers.append(gone)
    presence.seen_over_http(alice)
    online(bob)
    lobby_services.challenge(bob, alice, "standard", 100)
    _pushes(service, 1)
    assert not PushSubscription.objects.filter(user=alice).exists()


def test_a_failing_service_is_tried_again_and_the_push_arrives_once(
    service: PushService, alice: User, bob: User
) -> None:
    kept = _subscribe(alice, service.device())
    service.answers.extend([500, 503])
    presence.seen_over_http(alice)
    online(bob)
    lobby_services.challenge(bob, alice, "standard", 100)
    received = _pushes(service, 3)
    assert [p.status for p in received] == [500, 503, 201]
    kept.refresh_from_db()
    assert kept.last_sent_at is not None


def test_a_slow_push_service_never_holds_up_the_challenge(
    service: PushService, alice: User, bob: User
) -> None:
    _subscribe(alice, service.device())
    presence.seen_over_http(alice)
    online(bob)
    service.released.clear()  # the service takes every push and answers nothing yet
    client = Client()
    client.force_login(bob)
    answer = client.post(
        "/api/v1/challenges",
        {"to": "alice", "preset": "standard", "target": 100},
        content_type="application/json",
    )
    assert answer.status_code == 201
    assert service.received == []
    service.released.set()
    [received] = _pushes(service, 1)
    assert received.payload["title"] == "bob challenges you"


# --- Devices: the API and Settings ---------------------------------------------------------------


def test_the_api_lists_the_key_and_devices_and_removes_one(
    service: PushService, alice: User
) -> None:
    first = _subscribe(alice, service.device())
    second = _subscribe(alice, service.device())
    client = Client()
    client.force_login(alice)
    listed = client.get(API).json()
    assert listed["enabled"] is True
    key = base64.urlsafe_b64decode(listed["public_key"] + "==")
    assert len(key) == 65 and key[0] == 4
    assert [d["id"] for d in listed["subscriptions"]] == [first.pk, second.pk]
    assert client.delete(f"{API}/{first.pk}").status_code == 204
    assert [d["id"] for d in client.get(API).json()["subscriptions"]] == [second.pk]


def test_another_players_device_is_not_found_and_stays(
    service: PushService, alice: User, bob: User
) -> None:
    hers = _subscribe(alice, service.device())
    client = Client()
    client.force_login(bob)
    answer = client.delete(f"{API}/{hers.pk}")
    assert answer.status_code == 404
    assert answer.json()["code"] == "not_found"
    assert PushSubscription.objects.filter(pk=hers.pk).exists()


def _bad(device: Device, **changes: object) -> dict[str, object]:
    body = device.as_json()
    for name, value in changes.items():
        if name in ("p256dh", "auth"):
            body["keys"] = {**body["keys"], name: value}
        else:
            body[name] = value
    return body


@pytest.mark.parametrize(
    "changes",
    [
        {"endpoint": "not a url"},
        {"endpoint": "http://push.example.org/abc"},  # plain http, not loopback
        {"endpoint": "https://10.0.0.7/abc"},  # an address, not a push service
        {"endpoint": "https://localhost/abc"},
        {"endpoint": "ftp://push.example.org/abc"},
        {"endpoint": "https://push.example.org/" + "a" * 2000},
        {"p256dh": "AAAA"},
        {"p256dh": "not base64 !"},
        {"p256dh": "B" + "A" * 86},  # 65 bytes, but not a point on the curve
        {"auth": "AAAA"},
        {"keys": None},
        {"keys": {"p256dh": "x"}},
    ],
)
def test_a_malformed_subscription_is_refused_and_nothing_is_stored(
    service: PushService, alice: User, changes: dict[str, object]
) -> None:
    client = Client()
    client.force_login(alice)
    answer = client.post(API, _bad(service.device(), **changes), content_type="application/json")
    assert answer.status_code in (400, 422), answer.content
    assert answer.json()["message"]
    assert not PushSubscription.objects.exists()


def test_a_site_without_a_vapid_key_says_notifications_are_off(
    settings,
    alice: User,  # type: ignore[no-untyped-def]
) -> None:
    settings.VAPID_PRIVATE_KEY = ""
    client = Client()
    client.force_login(alice)
    assert client.get(API).json() == {"enabled": False, "public_key": "", "subscriptions": []}
    made = PushService()
    try:
        answer = client.post(API, made.device().as_json(), content_type="application/json")
    finally:
        made.close()
    assert answer.status_code == 409
    assert answer.json()["code"] == "push_off"
    assert "This site does not send notifications." in client.get("/settings/").content.decode()


def test_settings_lists_the_devices_and_removes_one(service: PushService, alice: User) -> None:
    made = _subscribe(alice, service.device())
    client = Client(HTTP_USER_AGENT="Mozilla/5.0 (Linux; Android 14) Chrome/130.0 Mobile")
    client.force_login(alice)
    page = client.get("/settings/").content.decode()
    assert 'id="notifications"' in page
    assert "Turn on notifications on this device" in page
    assert f'data-public-key="{push.public_key()}"' in page
    assert f'data-device-id="{made.pk}"' in page
    answer = client.post(f"/settings/devices/{made.pk}/remove", follow=True)
    assert "That device gets no more notifications." in answer.content.decode()
    assert not PushSubscription.objects.exists()


def test_a_device_is_named_after_its_browser(service: PushService, alice: User) -> None:
    client = Client(HTTP_USER_AGENT="Mozilla/5.0 (Android 14; Mobile; rv:130.0) Firefox/130.0")
    client.force_login(alice)
    answer = client.post(API, service.device().as_json(), content_type="application/json")
    assert answer.json()["device"] == "Firefox on Android"


def test_the_vapid_key_command_makes_a_key_the_library_loads(service: PushService) -> None:
    key = vapid_key()
    assert Vapid02.from_string(key).private_key is not None
    assert key != vapid_key()
