"""Which origins a browser's websocket may come from: scheme, host and port, all three.

A browser sends its cookies with any websocket handshake, whichever page opened it, so a socket
that relies on the session must come from one of the site's own pages. Channels'
``AllowedHostsOriginValidator`` compares the host alone: ``Origin: http://127.0.0.1:1`` (any
port, any scheme) opened a table socket. Here an origin is allowed when it is the handshake's
own origin (the scheme, ``https`` behind a TLS proxy that says so in
``SECURE_PROXY_SSL_HEADER``, and the Host header, which must be one of ``ALLOWED_HOSTS``), or
one of ``CSRF_TRUSTED_ORIGINS``: the rule Django's CSRF check applies to a form's POST.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.http.request import is_same_domain, split_domain_port, validate_host

from ginsite.lib.socket_auth import AuthMiddlewareStack
from ginsite.lib.sockets import header

DEFAULT_PORTS = {"http": 80, "https": 443}

Origin = tuple[str, str, int]  # scheme, host, port


def parse(origin: str) -> Origin | None:
    """``("https", "gin.example", 443)`` for ``https://gin.example``; None for anything that is
    not an http(s) origin."""
    try:
        parts = urlsplit(origin.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    return scheme, parts.hostname.lower(), port or DEFAULT_PORTS[scheme]


def _scheme(scope: dict[str, Any]) -> str:
    if scope.get("scheme") in ("wss", "https"):
        return "https"
    proxy = settings.SECURE_PROXY_SSL_HEADER
    if proxy:
        meta_name, secure_value = proxy
        name = meta_name.removeprefix("HTTP_").replace("_", "-").lower()
        if header(scope, name) == secure_value:
            return "https"
    return "http"


def own_origin(scope: dict[str, Any]) -> Origin | None:
    """The origin of the pages of the host this handshake was addressed to, if it is ours."""
    host = header(scope, "host")
    if not host:
        return None
    domain, _port = split_domain_port(host)
    if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
        return None
    return parse(f"{_scheme(scope)}://{host}")


def _trusted(origin: Origin) -> bool:
    for pattern in settings.CSRF_TRUSTED_ORIGINS:
        wildcard = "://*." in pattern
        trusted = parse(pattern.replace("://*.", "://", 1) if wildcard else pattern)
        if trusted is None or trusted[0] != origin[0] or trusted[2] != origin[2]:
            continue
        if origin[1] == trusted[1] or (wildcard and is_same_domain(origin[1], "." + trusted[1])):
            return True
    return False


def allowed(scope: dict[str, Any]) -> bool:
    """Whether the handshake's Origin header names one of the site's own origins."""
    raw = header(scope, "origin")
    origin = parse(raw) if raw else None
    if origin is None:
        return False
    return origin == own_origin(scope) or _trusted(origin)


class OriginValidator:
    """Lets a websocket through only from an allowed origin; refuses the handshake otherwise."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if allowed(scope):
            return await self.application(scope, receive, send)
        return await WebsocketDenier()(scope, receive, send)


class SessionFromAllowedOrigins:
    """For a socket that also serves programs (which sign in with a token and send no Origin):
    the session cookie is read only on a handshake from an allowed origin; on any other the
    socket is anonymous and must bring its own credentials."""

    def __init__(self, application: Any) -> None:
        self.with_session = AuthMiddlewareStack(application)
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if allowed(scope):
            return await self.with_session(scope, receive, send)
        return await self.application({**scope, "user": AnonymousUser()}, receive, send)
