"""The language a socket renders in: its reader's, never the server's (DESIGN.md principle 12).

A page's socket has no request of its own, and a server thread renders in the site's default
language unless told otherwise. So a socket settles its reader's language once, at connect:
the profile's when signed in and set; else the language the page was rendered in, which the
page carries in the socket's address (``?lang=de``) and which counts only if the site offers it;
else what the handshake's language cookie or Accept-Language header asks for.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar
from urllib.parse import parse_qs

from django.conf import settings
from django.http import HttpRequest
from django.utils import translation

T = TypeVar("T")


def offered(code: str | None) -> bool:
    """Is ``code`` one of the site's languages (``settings.LANGUAGES``)?"""
    return any(code == offered_code for offered_code, _name in settings.LANGUAGES)


def reader_language(scope: dict[str, Any], user: Any) -> str:
    """The language of whoever opened the socket of ``scope``. Reads the profile: call it off
    the event loop (``ginsite.lib.dbwork.in_thread``)."""
    profile = getattr(user, "profile", None) if getattr(user, "is_authenticated", False) else None
    chosen = getattr(profile, "language", "")
    if offered(chosen):
        return str(chosen)
    query = parse_qs((scope.get("query_string") or b"").decode("latin1"))
    page = (query.get("lang") or [""])[0]
    if offered(page):
        return page
    request = HttpRequest()
    request.COOKIES = dict(scope.get("cookies") or {})
    for name, value in scope.get("headers") or ():
        if name.lower() == b"accept-language":
            request.META["HTTP_ACCEPT_LANGUAGE"] = value.decode("latin1")
    return translation.get_language_from_request(request)


def in_language(language: str, fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` with ``language`` active: everything it renders is in that language."""
    with translation.override(language):
        return fn(*args)
