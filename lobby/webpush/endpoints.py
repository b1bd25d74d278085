"""Where the site may send a push: to the browsers' push services, at public addresses only.

A subscription's endpoint is a URL the subscriber chose, and the server posts to it later, so
an endpoint is a way to make the server open connections for someone else (server-side request
forgery). A review stored ``https://127.1:8607/x``, ``0x7f.0.0.1``, ``0177.0.0.1``,
``127.000.000.001``, ``localhost.`` and names of wildcard-DNS services that resolve to private
or cloud-metadata addresses, and the worker then opened connections to 127.0.0.1. Two rules,
each enough against those on its own:

- **At subscribe time** (and again before each send) the endpoint must be an https URL on port
  443 of a host in ``PUSH_SERVICE_HOSTS``: the browsers' push services (FCM, Mozilla's, Apple's,
  Microsoft's). A host is matched as written, never parsed as an address, and must be what both
  URL parsers (ours and the sender's, urllib3) read from it.
- **At send time** the name is resolved once, every address it gave must be public
  (``is_public``), and the connection goes to exactly those addresses (``PinnedSession``): TLS
  still checks the certificate against the name, and the Host header is still the name, but no
  second lookup happens between the check and the connect (DNS rebinding). Environment proxies
  are ignored and redirects are not followed.

The tests' stand-in listens on plain http on loopback: ``PUSH_ALLOW_LOOPBACK_HTTP`` with
``127.0.0.1`` in ``PUSH_SERVICE_HOSTS``, both set by the tests' settings alone; the environment
can set neither (``ginsite.settings``), so no deployment can open that hole.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit

import requests
from django.conf import settings
from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool
from urllib3.exceptions import ConnectTimeoutError, NameResolutionError, NewConnectionError
from urllib3.util import parse_url

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

# A host as a push service names itself: DNS labels, lower case, no trailing dot, and a top
# level that starts with a letter, so that no spelling of an address is a name.
_LABEL = r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
_NAME = re.compile(rf"(?:{_LABEL}\.)+[a-z](?:[a-z0-9-]{{0,61}}[a-z0-9])?")
_BELOW = re.compile(rf"{_LABEL}(?:\.{_LABEL})*")
# An endpoint's whole netloc: a name and at most the https port; no user, nothing a parser
# could read two ways. The tests' stand-in: loopback's address and any port.
_NETLOC = re.compile(rf"(?P<host>{_NAME.pattern})(?::443)?")
_LOOPBACK_NETLOC = re.compile(r"(?P<host>127\.0\.0\.1):[0-9]{1,5}")

# IPv6 forms that carry an IPv4 address: judged by the address they carry.
_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")
# IPv6 forms that reach IPv4 networks the check cannot see into: never public here.
_OPAQUE_V6 = (
    ipaddress.IPv6Network("::/96"),  # IPv4-compatible (deprecated)
    ipaddress.IPv6Network("64:ff9b:1::/48"),  # local-use NAT64
    ipaddress.IPv6Network("2002::/16"),  # 6to4
    ipaddress.IPv6Network("2001::/32"),  # Teredo
)


class NotAPushService(ValueError):
    """An endpoint that is not a push service's URL (the message says which rule)."""


class NotHttps(NotAPushService):
    """An endpoint that push services never give: not https."""


class Unreachable(Exception):
    """A push service's name resolved to an address the site does not connect to."""


def check(endpoint: str) -> None:
    """Raise NotAPushService unless ``endpoint`` is a URL of a push service the site sends to."""
    parts = urlsplit(endpoint)
    if parts.scheme == "http" and _loopback_allowed():
        found = _LOOPBACK_NETLOC.fullmatch(parts.netloc)
    elif parts.scheme == "https":
        found = _NETLOC.fullmatch(parts.netloc)
    else:
        raise NotHttps(endpoint[:20])
    if found is None:
        raise NotAPushService("not a host name")
    host = found["host"]
    if not allowed_host(host):
        raise NotAPushService("not a push service")
    if (parse_url(endpoint).host or "").lower() != host:
        raise NotAPushService("read two ways")


def allowed_host(host: str) -> bool:
    """Is ``host`` (lower case, as in a URL) one of ``PUSH_SERVICE_HOSTS``?"""
    for entry in settings.PUSH_SERVICE_HOSTS:
        if entry.startswith("*."):
            below = host.removesuffix(entry[1:])
            if below != host and _BELOW.fullmatch(below):
                return True
        elif host == entry:
            return True
    return False


def is_public(address: IPAddress) -> bool:
    """May the site connect to ``address``: a unicast address of the public internet? Not
    loopback, private, link-local, shared (100.64/10), reserved, documentation, multicast,
    unspecified, IPv6 unique-local or site-local, nor an IPv6 form that carries one of those."""
    if isinstance(address, ipaddress.IPv6Address):
        carried = address.ipv4_mapped
        if carried is None and address in _NAT64:
            carried = ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
        if carried is not None:
            return is_public(carried)
        if any(address in network for network in _OPAQUE_V6) or address.is_site_local:
            return False
    return address.is_global and not address.is_multicast and not address.is_reserved


def may_connect(address: IPAddress) -> bool:
    """``is_public``, or loopback where the tests' setting allows their stand-in."""
    return is_public(address) or (_loopback_allowed() and address.is_loopback)


def _loopback_allowed() -> bool:
    return bool(settings.PUSH_ALLOW_LOOPBACK_HTTP)


def resolve(host: str, port: int) -> list[tuple[Any, ...]]:
    """Every address ``host`` has (getaddrinfo's entries); Unreachable when any of them is one
    the site does not connect to: a name that mixes public and private addresses is no push
    service's."""
    found = socket.getaddrinfo(host.strip("[]"), port, type=socket.SOCK_STREAM)
    for _family, _type, _proto, _name, sockaddr in found:
        address = ipaddress.ip_address(str(sockaddr[0]).split("%", 1)[0])
        if not may_connect(address):
            raise Unreachable(f"{host} resolves to {address}, which is not a public address")
    return found


def connect(
    host: str,
    port: int,
    timeout: float | None,
    options: Sequence[tuple[int, int, Any]] | None = None,
) -> socket.socket:
    """A TCP connection to ``host``: resolved once, checked, and made to the checked addresses
    themselves (the first that answers), as urllib3's ``create_connection`` would otherwise do
    with a lookup of its own."""
    error: OSError | None = None
    for family, kind, proto, _name, sockaddr in resolve(host, port):
        sock = socket.socket(family, kind, proto)
        try:
            for option in options or ():
                sock.setsockopt(*option)
            sock.settimeout(timeout)
            sock.connect(sockaddr)
            return sock
        except OSError as failed:
            error = failed
            sock.close()
    raise error or OSError(f"{host} has no address")


class _Pinned:
    """urllib3's connection, opened by ``connect`` instead of its own lookup. Its host stays
    the name, so the TLS handshake's SNI and certificate check and the Host header are the
    push service's."""

    host: str
    port: int
    timeout: Any
    socket_options: Any

    def _new_conn(self) -> socket.socket:
        try:
            timeout = self.timeout if isinstance(self.timeout, int | float) else None
            return connect(self.host, self.port, timeout, self.socket_options)
        except socket.gaierror as failed:
            raise NameResolutionError(self.host, self, failed) from failed
        except TimeoutError as failed:
            raise ConnectTimeoutError(self, f"Connection to {self.host} timed out") from failed
        except OSError as failed:
            raise NewConnectionError(self, f"Failed to connect: {failed}") from failed


class _PinnedHTTP(_Pinned, HTTPConnection):
    pass


class _PinnedHTTPS(_Pinned, HTTPSConnection):
    pass


class _PinnedHTTPPool(HTTPConnectionPool):
    ConnectionCls = _PinnedHTTP


class _PinnedHTTPSPool(HTTPSConnectionPool):
    ConnectionCls = _PinnedHTTPS


class _PinnedAdapter(HTTPAdapter):
    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = {
            "http": _PinnedHTTPPool,
            "https": _PinnedHTTPSPool,
        }


class PinnedSession(requests.Session):
    """What ``pywebpush`` posts a push with (its ``requests_session``): every connection
    through ``connect``; no proxy from the environment (the check would see the proxy's
    address, not the push service's) and no redirect followed (a push service answers; a
    redirect would send the request somewhere the checks never saw)."""

    def __init__(self) -> None:
        super().__init__()
        self.trust_env = False
        adapter = _PinnedAdapter()
        self.mount("https://", adapter)
        self.mount("http://", adapter)

    def request(self, method: str | bytes, url: str | bytes, *args: Any, **kwargs: Any) -> Any:
        # The 3xx itself is the answer (``max_redirects = 0`` instead would raise before it
        # could be read, and the push would be tried again as if nobody had answered).
        kwargs["allow_redirects"] = False
        return super().request(method, url, *args, **kwargs)
