"""Web Push endpoints are the push services' alone (issue 39, finding 1): a subscriber chooses
the URL the server posts to, so a review stored endpoints on loopback in every spelling and
names that resolve to private addresses, and the worker connected to 127.0.0.1. Refused when
subscribing, through the API (a token) and the Settings page's opt-in (the session, as
static/js/push.js posts); refused again when sending, by the address actually connected to."""

from __future__ import annotations

import ipaddress
import os
import socket
from collections.abc import Iterator
from typing import Any

import pytest
import requests
from cryptography.hazmat.primitives.asymmetric import ec
from django.contrib.auth.models import User
from django.core.exceptions import ImproperlyConfigured
from django.test import Client

from lobby import presence
from lobby import services as lobby_services
from lobby.accounts import tokens
from lobby.models import PushSubscription
from lobby.webpush import delivery as push_delivery
from lobby.webpush import endpoints
from tests.envsettings import load_settings
from tests.lobby.lobby_helpers import online
from tests.lobby.push_service import Device, Listener, PushService, vapid_key

pytestmark = pytest.mark.django_db(transaction=True)

API = "/api/v1/me/push-subscriptions"

# What the review stored, and their relatives: loopback in other spellings, a local name,
# wildcard-DNS names of private and metadata addresses, a user before the host, another port.
REFUSED = [
    "https://127.1:8607/x",
    "https://0x7f.0.0.1/x",
    "https://0177.0.0.1/x",
    "https://127.000.000.001/x",
    "https://127.0.0.1/x",
    "https://2130706433/x",
    "https://localhost./x",
    "https://localhost/x",
    "https://[::1]/x",
    "https://[::ffff:127.0.0.1]/x",
    "https://127.0.0.1.nip.io/x",
    "https://169.254.169.254.sslip.io/latest/meta-data/",
    "https://10.0.0.7/x",
    "https://metadata.google.internal/x",
    "https://fcm.googleapis.com@127.0.0.1/x",
    "https://127.0.0.1#@fcm.googleapis.com/x",
    "https://evil.example\\@fcm.googleapis.com/x",
    "https://fcm.googleapis.com:8607/x",
    "https://fcm.googleapis.com./fcm/send/x",
    "https://fcm.googleapis.com.evil.example/x",
    "https://notify.windows.com/w/x",
    "https://evilnotify.windows.com/w/x",
    "http://fcm.googleapis.com/fcm/send/x",
    "http://127.1:8607/x",
    "http://localhost:8607/x",
]
# What browsers give today: Chrome, Firefox, Safari, Edge.
ACCEPTED = [
    "https://fcm.googleapis.com/fcm/send/dXbA1c:APA91bH",
    "https://updates.push.services.mozilla.com/wpush/v2/gAAAAABm",
    "https://web.push.apple.com/QGuQyavXutnMcvyhPb",
    "https://wns2-bl2p.notify.windows.com/w/?token=BQYAAAD",
]


@pytest.fixture
def vapid(settings) -> None:  # type: ignore[no-untyped-def]
    """Pushes on, with the shipped hosts and nothing on loopback allowed."""
    settings.VAPID_PRIVATE_KEY = vapid_key()
    settings.PUSH_RETRY_DELAYS = (0.01, 0.01)


def _device(endpoint: str) -> dict[str, Any]:
    """A browser's subscription at ``endpoint``, with keys of the right kind."""
    return Device(endpoint, ec.generate_private_key(ec.SECP256R1()), os.urandom(16)).as_json()


def _by_token(user: User, body: dict[str, Any]) -> Any:
    secret = tokens.create(user, "push")[1]
    return Client().post(
        API, body, content_type="application/json", headers={"Authorization": f"Bearer {secret}"}
    )


def _by_settings_page(user: User, body: dict[str, Any]) -> Any:
    """As the Settings page's opt-in posts it: the session, and the page's CSRF token."""
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(user)
    assert browser.get("/settings/").status_code == 200
    token = browser.cookies["csrftoken"].value
    return browser.post(API, body, content_type="application/json", headers={"X-CSRFToken": token})


DOORS = [_by_token, _by_settings_page]


@pytest.mark.parametrize("door", DOORS, ids=["api", "settings_page"])
@pytest.mark.parametrize("endpoint", REFUSED)
def test_it_refuses_an_endpoint_that_is_not_a_push_service(
    vapid: None, alice: User, door: Any, endpoint: str
) -> None:
    answer = door(alice, _device(endpoint))
    assert answer.status_code == 422, answer.content
    assert answer.json()["code"] == "bad_subscription"
    assert "push service" in answer.json()["message"]
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize("endpoint", REFUSED)
def test_it_refuses_them_even_where_the_tests_stand_in_is_allowed(
    service: PushService, alice: User, endpoint: str
) -> None:
    """The tests' own allowance (plain http to 127.0.0.1, that address among the hosts) opens
    that one spelling and no other."""
    answer = _by_token(alice, _device(endpoint))
    assert answer.status_code == 422, answer.content
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize("door", DOORS, ids=["api", "settings_page"])
@pytest.mark.parametrize("endpoint", ACCEPTED)
def test_it_takes_the_browsers_push_services(
    vapid: None, alice: User, door: Any, endpoint: str
) -> None:
    answer = door(alice, _device(endpoint))
    assert answer.status_code == 201, answer.content
    assert PushSubscription.objects.get().endpoint == endpoint


def test_the_push_services_are_a_setting(vapid: None, settings, alice: User) -> None:  # type: ignore[no-untyped-def]
    settings.PUSH_SERVICE_HOSTS = ["push.example.org"]
    assert _by_token(alice, _device(ACCEPTED[0])).status_code == 422
    assert _by_token(alice, _device("https://push.example.org/v1/abc")).status_code == 201


# --- When sending: the address connected to ---------------------------------------------------


@pytest.mark.parametrize(
    "address",
    [
        "127.0.0.1",
        "127.255.0.9",
        "0.0.0.0",
        "10.1.2.3",
        "172.16.0.1",
        "192.168.1.1",
        "169.254.169.254",
        "100.64.0.1",
        "192.0.2.1",
        "198.18.0.1",
        "224.0.0.1",
        "240.0.0.1",
        "255.255.255.255",
        "::",
        "::1",
        "fd00:ec2::254",
        "fe80::1",
        "fec0::1",
        "ff02::1",
        "2001:db8::1",
        "::ffff:127.0.0.1",
        "::ffff:169.254.169.254",
        "::7f00:1",
        "64:ff9b::7f00:1",
        "64:ff9b::a9fe:a9fe",
        "64:ff9b:1::a00:1",
        "2002:7f00:1::1",
        "2001:0:4136:e378::1",
    ],
)
def test_it_connects_to_no_address_that_is_not_public(address: str) -> None:
    assert not endpoints.is_public(ipaddress.ip_address(address))


@pytest.mark.parametrize(
    "address", ["142.250.185.106", "2a00:1450:4001:82b::200a", "::ffff:8.8.8.8", "64:ff9b::808:808"]
)
def test_it_connects_to_public_addresses(address: str) -> None:
    assert endpoints.is_public(ipaddress.ip_address(address))


@pytest.fixture
def listener() -> Iterator[Listener]:
    made = Listener()
    yield made
    made.close()


def _resolving(
    monkeypatch: pytest.MonkeyPatch, name: str, addresses: list[tuple[str, int]]
) -> None:
    """The resolver answers ``addresses`` for ``name`` (as a wildcard-DNS service or a
    rebinding name server would), and as before for every other name."""
    real = socket.getaddrinfo

    def getaddrinfo(host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
        if host != name:
            return real(host, port, *args, **kwargs)
        return [
            (
                socket.AF_INET6 if ":" in address else socket.AF_INET,
                socket.SOCK_STREAM,
                socket.IPPROTO_TCP,
                "",
                (address, at),
            )
            for address, at in addresses
        ]

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)


def _challenge_alice(alice: User, bob: User) -> None:
    presence.seen_over_http(alice)  # no page of hers open: a push is due
    online(bob)
    lobby_services.challenge(bob, alice, "standard", 100)
    assert push_delivery.wait_idle()


@pytest.mark.parametrize(
    "answers",
    [
        ["127.0.0.1"],  # straight to loopback
        ["127.0.0.1", "142.250.185.106"],  # a public address beside it does not make it one
    ],
)
def test_a_push_service_name_that_resolves_to_loopback_is_not_connected_to(
    vapid: None,
    monkeypatch: pytest.MonkeyPatch,
    listener: Listener,
    alice: User,
    bob: User,
    answers: list[str],
) -> None:
    """fcm.googleapis.com is let in when subscribing; when the push is sent its name leads to
    127.0.0.1, where the listener counts every connection: none is made, nor tried again."""
    kept = _by_token(alice, _device("https://fcm.googleapis.com/fcm/send/abc"))
    assert kept.status_code == 201
    _resolving(monkeypatch, "fcm.googleapis.com", [(a, listener.port) for a in answers])
    _challenge_alice(alice, bob)
    assert listener.connections() == 0
    subscription = PushSubscription.objects.get()
    assert subscription.last_sent_at is None  # not sent, and kept: the name may come back


@pytest.mark.parametrize("address", ["10.0.0.7", "169.254.169.254", "fd00:ec2::254"])
def test_a_name_that_resolves_to_a_private_address_is_refused_before_connecting(
    monkeypatch: pytest.MonkeyPatch, address: str
) -> None:
    _resolving(monkeypatch, "fcm.googleapis.com", [(address, 443)])
    opened: list[Any] = []
    monkeypatch.setattr(endpoints.socket, "socket", lambda *a: opened.append(a))
    with pytest.raises(endpoints.Unreachable, match=address):
        endpoints.PinnedSession().post("https://fcm.googleapis.com/fcm/send/abc", timeout=5)
    assert opened == []


def test_a_subscription_stored_before_the_rule_is_dropped_unsent(
    vapid: None, listener: Listener, alice: User, bob: User
) -> None:
    """An endpoint the old check let in (another spelling of loopback) is no push service's:
    removed at its next push, and never connected to."""
    device = _device(f"https://127.1:{listener.port}/x")
    PushSubscription.objects.create(user=alice, endpoint=device["endpoint"], **device["keys"])
    _challenge_alice(alice, bob)
    assert listener.connections() == 0
    assert not PushSubscription.objects.exists()


def test_a_push_service_that_redirects_is_not_followed_nor_tried_again(
    service: PushService, listener: Listener, alice: User, bob: User
) -> None:
    answer = _by_token(alice, service.device().as_json())
    assert answer.status_code == 201
    service.location = f"http://127.0.0.1:{listener.port}/elsewhere"
    service.answers.append(307)
    _challenge_alice(alice, bob)
    assert [push.status for push in service.received] == [307]
    assert listener.connections() == 0


@pytest.mark.parametrize(
    "hosts", ["127.0.0.1", "fcm.googleapis.com,[::1]", "https://x.example", "a.example:8443"]
)
def test_the_environment_cannot_allow_an_address_or_loopback(
    monkeypatch: pytest.MonkeyPatch, hosts: str
) -> None:
    with pytest.raises(ImproperlyConfigured, match="PUSH_SERVICE_HOSTS"):
        load_settings(monkeypatch, PUSH_SERVICE_HOSTS=hosts)
    monkeypatch.setenv("PUSH_ALLOW_LOOPBACK_HTTP", "1")
    from_env = load_settings(monkeypatch, PUSH_SERVICE_HOSTS="push.example.org,*.push.example")
    assert from_env["PUSH_SERVICE_HOSTS"] == ["push.example.org", "*.push.example"]
    assert from_env["PUSH_ALLOW_LOOPBACK_HTTP"] is False


def _certificate(tmp_path: Any, name: str) -> tuple[str, str]:
    """A self-signed certificate for ``name`` and its key, as PEM files."""
    import datetime

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(name)]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_file, key_file = tmp_path / "cert.pem", tmp_path / "key.pem"
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return str(cert_file), str(key_file)


def test_the_checked_address_is_reached_under_the_push_services_name(
    settings,  # type: ignore[no-untyped-def]
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Any,
) -> None:
    """Connecting to the address checked, not to the name, still speaks TLS to the name: the
    certificate is checked against it (SNI too) and the Host header carries it."""
    import ssl
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    settings.PUSH_ALLOW_LOOPBACK_HTTP = True  # the stand-in is on loopback
    seen: dict[str, str] = {}

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server's name
            seen["host"] = self.headers["Host"]
            self.send_response(201)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    cert, key = _certificate(tmp_path, "push.example.org")
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)

    def named(sock: Any, name: str | None, ctx: Any) -> None:
        seen["sni"] = name or ""

    context.sni_callback = named
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        _resolving(monkeypatch, "push.example.org", [("127.0.0.1", server.server_port)])
        session = endpoints.PinnedSession()
        session.verify = cert
        answer = session.post("https://push.example.org/v1/abc", data=b"x", timeout=5)
        assert answer.status_code == 201
        assert seen == {"sni": "push.example.org", "host": "push.example.org"}
        _resolving(monkeypatch, "other.example.org", [("127.0.0.1", server.server_port)])
        with pytest.raises(requests.exceptions.SSLError):
            session.post("https://other.example.org/v1/abc", data=b"x", timeout=5)
    finally:
        server.shutdown()
        server.server_close()
