"""A real SMTP server on loopback (aiosmtpd), for the tests of the site's production mail path:
the SMTP backend that EMAIL_URL configures connects to it, upgrades with STARTTLS (a
certificate made for the test, trusted through SSL_CERT_FILE), signs in and delivers.

    with smtp_server(tmp_path) as server:
        url = server.url                      # smtp://gin:...@127.0.0.1:PORT
        ...
        mail = server.wait_for("dora@example.com")
"""

from __future__ import annotations

import datetime
import ipaddress
import os
import socket
import ssl
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any
from urllib.parse import quote

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

USER, PASSWORD = "gin", "s3cret p@ss"


@dataclass
class Delivered:
    """One message as the server received it."""

    sender: str
    recipients: list[str]
    message: EmailMessage
    user: str | None  # who signed in to send it

    @property
    def subject(self) -> str:
        # As a mail program shows it: a long encoded subject arrives folded over lines.
        return " ".join(str(self.message["Subject"]).split())

    @property
    def body(self) -> str:
        part = self.message.get_body(preferencelist=("plain",))
        assert part is not None, "no text/plain part"
        return str(part.get_content())  # type: ignore[attr-defined]


@dataclass
class SmtpServer:
    port: int
    delivered: list[Delivered] = field(default_factory=list)
    arrived: threading.Condition = field(default_factory=threading.Condition)
    tls_seen: list[bool] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"smtp://{USER}:{quote(PASSWORD, safe='')}@127.0.0.1:{self.port}"

    def wait_for(self, recipient: str, count: int = 1, timeout: float = 20) -> Delivered:
        """The ``count``-th message to ``recipient``, once it has arrived."""
        with self.arrived:
            self.arrived.wait_for(lambda: len(self.to(recipient)) >= count, timeout)
        mails = self.to(recipient)
        assert len(mails) >= count, f"{len(mails)} mails to {recipient}, waited for {count}"
        return mails[count - 1]

    def to(self, recipient: str) -> list[Delivered]:
        return [mail for mail in self.delivered if recipient in mail.recipients]


class _Handler:
    def __init__(self, server: SmtpServer) -> None:
        self.server = server

    async def handle_DATA(self, smtp: Any, session: Any, envelope: Any) -> str:  # noqa: N802
        message = message_from_bytes(envelope.content, policy=policy.default)
        assert isinstance(message, EmailMessage)
        login = session.auth_data.login.decode() if session.auth_data else None
        with self.server.arrived:
            self.server.tls_seen.append(session.ssl is not None)
            self.server.delivered.append(
                Delivered(envelope.mail_from, list(envelope.rcpt_tos), message, login)
            )
            self.server.arrived.notify_all()
        return "250 OK"


def _authenticate(
    server: Any, session: Any, envelope: Any, mechanism: str, data: Any
) -> AuthResult:
    ok = isinstance(data, LoginPassword) and (data.login, data.password) == (
        USER.encode(),
        PASSWORD.encode(),
    )
    return AuthResult(success=ok, handled=False, auth_data=data if ok else None)


def _certificate(directory: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and localhost (the client checks both)."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
            ),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = directory / "smtp-cert.pem", directory / "smtp-key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_path, key_path


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def smtp_server(directory: Path) -> Iterator[SmtpServer]:
    """A server that requires STARTTLS and a password, as a mail provider's submission port
    does. While it runs, this process trusts its certificate (SSL_CERT_FILE), and only it."""
    cert, key = _certificate(directory)
    tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    tls.load_cert_chain(cert, key)
    server = SmtpServer(port=_free_port())
    controller = Controller(
        _Handler(server),
        hostname="127.0.0.1",
        port=server.port,
        tls_context=tls,
        require_starttls=True,
        authenticator=_authenticate,
        auth_require_tls=True,
    )
    previous = os.environ.get("SSL_CERT_FILE")
    os.environ["SSL_CERT_FILE"] = str(cert)
    controller.start()
    try:
        yield server
    finally:
        controller.stop()
        if previous is None:
            os.environ.pop("SSL_CERT_FILE", None)
        else:
            os.environ["SSL_CERT_FILE"] = previous
