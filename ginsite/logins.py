"""Password guessing, throttled by django-axes for every sign-in form (the site's and the
admin's): failures are counted per normalised username alone, in the shared cache (Redis when
REDIS_URL is set, so every worker counts together), whatever the Host header, port or worker.

allauth keeps its own per-address limit on the site's form; axes adds the per-name lockout that
covers ``/admin/login/`` as well.
"""

from __future__ import annotations

import math
import unicodedata
from typing import Any

from axes.helpers import get_cool_off, get_failure_limit
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def normalise(name: str) -> str:
    """One spelling per name: ``Alice``, `` alice `` and the fullwidth ``ａlice`` count as one."""
    return unicodedata.normalize("NFKC", name).strip().casefold()


def username(request: HttpRequest | None, credentials: dict[str, Any] | None) -> str | None:
    """The name a sign-in attempt is for (axes' AXES_USERNAME_CALLABLE): from the credentials
    handed to ``authenticate``, or from the form (allauth calls the field ``login``)."""
    raw = (credentials or {}).get("username")
    if raw is None and request is not None and request.method == "POST":
        raw = request.POST.get("username") or request.POST.get("login")
    return normalise(raw) if isinstance(raw, str) and raw.strip() else None


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None, credentials: dict[str, Any] | None
) -> HttpResponse:
    """429 in the site's layout, saying how long to wait (also in ``Retry-After``)."""
    cool_off = get_cool_off(request)
    seconds = int(cool_off.total_seconds()) if cool_off else 0
    response = render(
        request,
        "account/lockout.html",
        {
            "failure_limit": get_failure_limit(request, credentials),
            "minutes": max(1, math.ceil(seconds / 60)),
        },
        status=429,
    )
    if seconds:
        response["Retry-After"] = str(seconds)
    return response
