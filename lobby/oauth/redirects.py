"""Where an app may send the player's browser back with a code (RFC 8252, OAuth for native apps).

Three kinds of redirect URI, and nothing else:
- ``https://host/path``, for apps with a web page of their own;
- ``http://127.0.0.1/path`` or ``http://[::1]/path``, a loopback on any port (§7.3), for
  programs that listen on a port the system picks (ginclient). Plain http to any other host
  would carry the code across a network in the clear, and ``localhost`` may be resolved to
  something else (§8.3): both are refused;
- a private-use scheme named after a domain its developer controls, reversed, with a single
  slash and no host (§7.1): ``com.example.gin:/oauth/callback``, for phone apps, whose
  system hands that scheme to the app that claimed it. A scheme without a dot (``gin:``,
  ``javascript:``) names nobody's domain and is refused; such a URI is only for public
  clients (every app here is one), since another app on the phone could claim the scheme:
  PKCE is what keeps a code it catches useless to it.

A private-use scheme belongs to one app: it names its developer's domain, so a second app
asking for it is not who it says it is (``register_app`` refuses it; apps are registered by
staff only, who check that the developer holds the domain).

``problem`` says what is wrong with a URI, for ``register_app`` and the consent page, which
refuses a registered URI that breaks these rules (the admin's form checks less) before it
sends anyone anywhere. The URI must still be one the app registered, exactly (the toolkit's
check; a loopback's port excepted). ``schemes`` is what the consent page may redirect to.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

LOOPBACK_HOSTS = frozenset({"127.0.0.1", "::1"})
# RFC 3986 scheme characters, at least two dot-separated labels: com.example.gin
_REVERSED_DOMAIN = re.compile(r"^[a-z][a-z0-9+-]*(\.[a-z0-9][a-z0-9+-]*)+$")


def is_private_scheme(scheme: str) -> bool:
    return bool(_REVERSED_DOMAIN.match(scheme))


def problem(uri: str, *, public: bool = True) -> str | None:
    """Why ``uri`` may not be a redirect URI, or None when it may."""
    if "#" in uri or any(c.isspace() for c in uri):
        return "a redirect URI has no fragment and no blanks"
    try:
        parts = urlsplit(uri)
        parts.port  # noqa: B018 (a port that is not a number raises here)
    except ValueError:
        return "not a URI"
    if parts.username or parts.password:
        return "a redirect URI carries no user name or password"
    if parts.scheme == "https":
        return None if parts.hostname else "an https redirect URI names a host"
    if parts.scheme == "http":
        if parts.hostname in LOOPBACK_HOSTS:
            return None
        return "plain http only to a loopback address: http://127.0.0.1/... or http://[::1]/..."
    if is_private_scheme(parts.scheme):
        if not public:
            return "a private-use scheme is only for public clients"
        if parts.netloc or uri.startswith(f"{parts.scheme}://") or not parts.path.startswith("/"):
            return f"a private-use scheme has a single slash and no host: {parts.scheme}:/path"
        return None
    return (
        "the scheme must be https, http to a loopback address, or a domain of yours reversed "
        "(com.example.app:/callback)"
    )


def private_scheme(uri: str) -> str | None:
    """The private-use scheme of ``uri`` (``com.example.gin``), or None for https and http."""
    scheme = urlsplit(uri).scheme
    return scheme if is_private_scheme(scheme) else None


def schemes(uri: str) -> list[str]:
    """The schemes a redirect to ``uri`` (already checked) may use."""
    scheme = private_scheme(uri)
    return ["https", "http", *([scheme] if scheme else [])]
