"""The client's address behind a reverse proxy, trusted only from the proxy.

nginx (deploy/nginx.conf) passes the client's address in ``X-Forwarded-For`` (appending the
address it was reached from to whatever the client sent) and the scheme in
``X-Forwarded-Proto``. A worker must believe those headers only when nginx sent them: anyone
who reaches a worker directly could otherwise send ``X-Forwarded-For: 203.0.113.9`` and have
their sign-up, login-failure and invalid-token limits counted against someone else's address,
or a fresh address at every request. (daphne's ``--proxy-headers`` believes the header from
anyone, so the site does not use it.)

So, once ``TRUSTED_PROXIES`` names the proxies, for HTTP and websockets alike: a request from
one of them gets as its client the rightmost address in ``X-Forwarded-For`` that is not itself a
trusted proxy (what the client wrote to the left of it is not believed); a request from
anywhere else loses its ``X-Forwarded-*`` headers before Django or a consumer sees them, so
neither its address nor ``SECURE_PROXY_SSL_HEADER`` can be forged. With ``TRUSTED_PROXIES``
unset nothing changes: the address is the peer's, and the headers pass as they came (a site
behind a proxy of its own that set only ``SECURE_PROXY_SSL_HEADER`` keeps working).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Sequence
from typing import Any

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address

_FORWARDED = b"x-forwarded-"


def _address(text: str) -> Address | None:
    try:
        return ipaddress.ip_address(text.strip().strip("[]"))
    except ValueError:
        return None


def _trusted(address: Address | None, proxies: Sequence[Network]) -> bool:
    return address is not None and any(address in network for network in proxies)


def forwarded_client(header: str, proxies: Sequence[Network]) -> str | None:
    """The client's address in an ``X-Forwarded-For`` value sent by a trusted proxy: the
    rightmost address that is not a trusted proxy; None when there is none or it is not an
    address (the proxy's own address then stands)."""
    for item in reversed(header.split(",")):
        address = _address(item)
        if address is None:
            return None
        if not _trusted(address, proxies):
            return str(address)
    return None


class TrustedProxy:
    """ASGI middleware: the client of a request forwarded by a trusted proxy is the address
    it forwarded for; nobody else may send ``X-Forwarded-*`` headers."""

    def __init__(self, app: Any, proxies: Sequence[Network]) -> None:
        self.app = app
        self.proxies = list(proxies)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> Any:
        if self.proxies and scope.get("type") in ("http", "websocket"):
            scope = self._rewritten(scope)
        return await self.app(scope, receive, send)

    def _rewritten(self, scope: dict[str, Any]) -> dict[str, Any]:
        client = scope.get("client") or (None, None)
        headers = scope.get("headers") or []
        if not _trusted(_address(str(client[0] or "")), self.proxies):
            kept = [(k, v) for k, v in headers if not k.lower().startswith(_FORWARDED)]
            return scope if len(kept) == len(headers) else {**scope, "headers": kept}
        values = [v.decode("latin-1") for k, v in headers if k.lower() == b"x-forwarded-for"]
        forwarded = forwarded_client(",".join(values), self.proxies) if values else None
        if forwarded is None:
            return scope
        return {**scope, "client": [forwarded, 0]}
