"""EMAIL_URL: where the site's mail goes, as one URL, turned into Django's EMAIL_* settings.

    smtp://user:password@mail.example:587    SMTP, upgraded with STARTTLS (refused without it)
    smtps://user:password@mail.example:465   SMTP over TLS from the first byte
    smtp://localhost:25?tls=off              plain SMTP, for a relay on this machine only
    console://                               printed on standard output (development)
    locmem://                                kept in memory (tests: django.core.mail.outbox)

The user and password are percent-decoded, so a password may hold any character
(``p%40ss`` is ``p@ss``). Anything else is an error naming the variable, as for the other
settings: a site that cannot send its verification and reset mail should not start.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

_BACKENDS = {
    "smtp": "django.core.mail.backends.smtp.EmailBackend",
    "smtps": "django.core.mail.backends.smtp.EmailBackend",
    "console": "django.core.mail.backends.console.EmailBackend",
    "locmem": "django.core.mail.backends.locmem.EmailBackend",
}
_DEFAULT_PORTS = {"smtp": 587, "smtps": 465}


def _fail(why: str) -> ImproperlyConfigured:
    return ImproperlyConfigured(f"EMAIL_URL {why}")


def parse(url: str) -> dict[str, Any]:
    """Django's EMAIL_BACKEND, EMAIL_HOST, EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD,
    EMAIL_USE_TLS and EMAIL_USE_SSL for ``url``."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme not in _BACKENDS:
        raise _fail(f"must start with smtp://, smtps://, console:// or locmem://, got {url!r}")
    # Django's own defaults, for the backends that need no server.
    settings: dict[str, Any] = {
        "EMAIL_BACKEND": _BACKENDS[scheme],
        "EMAIL_HOST": "localhost",
        "EMAIL_PORT": 25,
        "EMAIL_HOST_USER": "",
        "EMAIL_HOST_PASSWORD": "",
        "EMAIL_USE_TLS": False,
        "EMAIL_USE_SSL": False,
    }
    if scheme not in _DEFAULT_PORTS:
        return settings
    if not parts.hostname:
        raise _fail("needs a host, e.g. smtp://user:password@mail.example:587")
    try:
        port = parts.port or _DEFAULT_PORTS[scheme]
    except ValueError:
        raise _fail("has a port that is not a number") from None
    query = parse_qs(parts.query, keep_blank_values=True)
    unknown = set(query) - {"tls"}
    if unknown:
        raise _fail(f"has unknown parameters: {', '.join(sorted(unknown))}")
    tls = query.get("tls", ["on"])[-1].lower()
    if tls not in {"on", "off"}:
        raise _fail("tls must be on or off")
    settings.update(
        EMAIL_HOST=parts.hostname,
        EMAIL_PORT=port,
        EMAIL_HOST_USER=unquote(parts.username or ""),
        EMAIL_HOST_PASSWORD=unquote(parts.password or ""),
        EMAIL_USE_SSL=scheme == "smtps",
        EMAIL_USE_TLS=scheme == "smtp" and tls == "on",
    )
    if scheme == "smtps" and tls == "off":
        raise _fail("smtps:// is TLS from the start; use smtp://...?tls=off for plain SMTP")
    return settings
