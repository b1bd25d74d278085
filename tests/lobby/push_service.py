"""A push service stand-in for the Web Push tests: a local HTTP endpoint that receives what the
site posts and decrypts it with the subscription's own keys, as the browser behind a real push
service would (RFC 8291, aes128gcm). It answers each push with the next status it was given
(201 when none), and can hold pushes until released, like a service that is slow to answer."""

from __future__ import annotations

import base64
import io
import json
import os
import re
import socket
import threading
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.core.management import call_command


def vapid_key() -> str:
    out = io.StringIO()
    call_command("make_vapid_keys", stdout=out)
    return re.search(r"VAPID_PRIVATE_KEY=(\S+)", out.getvalue()).group(1)  # type: ignore[union-attr]


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


@dataclass
class Device:
    """A browser's subscription: its endpoint and keys; the private key stays here."""

    endpoint: str
    private_key: ec.EllipticCurvePrivateKey
    auth: bytes

    @property
    def keys(self) -> dict[str, str]:
        public = self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {"p256dh": b64(public), "auth": b64(self.auth)}

    def as_json(self) -> dict[str, Any]:
        return {"endpoint": self.endpoint, "keys": self.keys}


@dataclass
class Push:
    path: str
    headers: dict[str, str]
    body: bytes
    payload: dict[str, Any]
    status: int


@dataclass
class PushService:
    answers: deque[int] = field(default_factory=deque)
    received: list[Push] = field(default_factory=list)
    released: threading.Event = field(default_factory=threading.Event)
    arrived: threading.Condition = field(default_factory=threading.Condition)
    devices: dict[str, Device] = field(default_factory=dict)
    # Where a 3xx answer sends the site (its Location header).
    location: str = ""

    def __post_init__(self) -> None:
        self.released.set()
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                service.released.wait(30)
                status = service.answers.popleft() if service.answers else 201
                device = service.devices[self.path]
                clear = http_ece.decrypt(
                    body, private_key=device.private_key, auth_secret=device.auth
                )
                headers = {k.lower(): v for k, v in self.headers.items()}
                push = Push(self.path, headers, body, json.loads(clear), status)
                # Recorded before the answer: once the site has its answer (and its delivery
                # is idle), a test sees the push.
                with service.arrived:
                    service.received.append(push)
                    service.arrived.notify_all()
                self.send_response(status)
                if 300 <= status < 400:
                    self.send_header("Location", service.location)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def device(self) -> Device:
        path = f"/push/{b64(os.urandom(9))}"
        made = Device(
            endpoint=f"http://127.0.0.1:{self.server.server_port}{path}",
            private_key=ec.generate_private_key(ec.SECP256R1()),
            auth=os.urandom(16),
        )
        self.devices[path] = made
        return made

    def wait_for(self, count: int, timeout: float = 10) -> list[Push]:
        with self.arrived:
            self.arrived.wait_for(lambda: len(self.received) >= count, timeout)
        return list(self.received)

    def close(self) -> None:
        self.released.set()
        self.server.shutdown()
        self.server.server_close()


class Listener:
    """A TCP port on loopback that answers nothing and counts the connections made to it: where
    a test points a name the site must not connect to."""

    def __init__(self) -> None:
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.sock.setblocking(False)
        self.port = self.sock.getsockname()[1]
        self.count = 0

    def connections(self) -> int:
        """How many connections were made so far (the kernel completes them in the backlog
        before anyone accepts, so this sees every one made before it is called)."""
        while True:
            try:
                accepted, _address = self.sock.accept()
            except BlockingIOError:
                return self.count
            accepted.close()
            self.count += 1

    def close(self) -> None:
        self.sock.close()
