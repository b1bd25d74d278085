"""Password guessing, throttled by django-axes for every sign-in form (the site's and the
admin's), in the shared cache (Redis when REDIS_URL is set, so every worker counts together),
whatever the Host header, port or worker.

Failures are counted twice. Per normalised username and client address together, axes locks
after LOGIN_FAILURE_LIMIT (5): whoever guesses from one address stops there. Per name alone,
whatever the address, ``NameAndAddressLockout`` locks only after LOGIN_NAME_FAILURE_LIMIT (50),
the bar for guessing spread over many addresses. A name locked by its address alone would let
anyone lock any player out with five wrong passwords, and the right password would then get a
429 too.

allauth keeps its own per-address limit on the site's form; axes adds the lockouts that cover
``/admin/login/`` as well.
"""

from __future__ import annotations

import hashlib
import math
import unicodedata
from typing import Any

from axes.handlers.cache import AxesCacheHandler
from axes.helpers import (
    cleanse_parameters,
    get_cache_timeout,
    get_client_parameters,
    get_client_username,
    get_cool_off,
    get_failure_limit,
)
from axes.signals import user_locked_out
from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from ginsite.serving.requestlog import loggable_path


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
    minutes = max(1, math.ceil(seconds / 60))
    if wants_json(request):
        message = _("Too many failed sign-ins for that name. Try again in %(n)s minutes.") % {
            "n": minutes
        }
        response: HttpResponse = JsonResponse(
            {"code": "rate_limited", "message": message}, status=429
        )
    else:
        response = render(
            request,
            "account/lockout.html",
            {"failure_limit": get_failure_limit(request, credentials), "minutes": minutes},
            status=429,
        )
    if seconds:
        response["Retry-After"] = str(seconds)
    return response


def wants_json(request: HttpRequest) -> bool:
    """Does the client ask for JSON rather than a page (``Accept: application/json``, as
    apps send)? A browser's Accept prefers HTML; no Accept header at all gets the page."""
    return request.get_preferred_type(["text/html", "application/json"]) == "application/json"


def too_many_requests(request: HttpRequest) -> HttpResponse:
    """allauth's answer past one of its rate limits (``settings.ACCOUNT_RATE_LIMITS``: sign-in
    failures, sign-up attempts, mail sent to one address), found as ``ginsite.urls.handler429``:
    the site's page, or for a client that asks for JSON the API's error shape."""
    if wants_json(request):
        message = _(
            "That was asked for too often in a short time. Please wait a while and try again."
        )
        return JsonResponse({"code": "rate_limited", "message": message}, status=429)
    return render(request, "429.html", status=429)


def client_str(
    username: str, ip_address: str, user_agent: str, path_info: str, request: HttpRequest
) -> str:
    """axes' description of a sign-in, sign-out or failure in its log lines
    (AXES_CLIENT_STR_CALLABLE), as axes writes it, but with the path as the request log shows
    it: a sign-out on opening a verification or reset link must not log the link's key."""
    params: dict[str, Any] = {}
    for part in get_client_parameters(username, ip_address, user_agent, request):
        params.update(part)
    params = cleanse_parameters(params)
    params["path_info"] = loggable_path(request) if request is not None else "-"
    return "{" + ", ".join(f'{key}: "{value}"' for key, value in params.items()) + "}"


class NameAndAddressLockout(AxesCacheHandler):
    """axes' cache handler (``AXES_HANDLER``), which counts and locks per name and address
    together (``AXES_LOCKOUT_PARAMETERS``), plus a count per name alone with its own, much
    higher bar (``LOGIN_NAME_FAILURE_LIMIT``). Both wait ``AXES_COOLOFF_TIME`` from the last
    failure, and a failure while locked out starts the wait again, as axes does."""

    def _name_key(self, request: HttpRequest, credentials: dict[str, Any] | None) -> str | None:
        name = get_client_username(request, credentials)
        if not name:
            return None
        # A prefix of our own: axes' keys join a name and an address without a separator, so
        # one of its digests could be a name's ("bob" at 1.2.3.4 is "bob1.2.3.4").
        return "login-failures:name:" + hashlib.sha256(name.encode()).hexdigest()

    def name_failures(self, request: HttpRequest, credentials: dict[str, Any] | None) -> int:
        key = self._name_key(request, credentials)
        return int(self.cache.get(key, 0)) if key else 0

    def is_locked(self, request: HttpRequest, credentials: dict[str, Any] | None = None) -> bool:
        if super().is_locked(request, credentials):
            return True
        limit = settings.LOGIN_NAME_FAILURE_LIMIT
        return bool(settings.AXES_LOCK_OUT_AT_FAILURE) and (
            self.name_failures(request, credentials) >= limit
        )

    def user_login_failed(
        self,
        sender: Any,
        credentials: dict[str, Any],
        request: HttpRequest | None = None,
        **kwargs: Any,
    ) -> None:
        was_locked = getattr(request, "axes_locked_out", False)
        super().user_login_failed(sender, credentials, request=request, **kwargs)
        if request is None or self.is_whitelisted(request, credentials):
            return
        if was_locked and not settings.AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT:
            return  # as axes: a refused attempt does not restart the wait
        key = self._name_key(request, credentials)
        if key is None:
            return
        timeout = get_cache_timeout(request)
        if self.cache.add(key, 1, timeout=timeout):
            failures = 1
        else:
            failures = self.cache.incr(key)
            self.cache.touch(key, timeout=timeout)
        if failures >= settings.LOGIN_NAME_FAILURE_LIMIT and not request.axes_locked_out:  # type: ignore[attr-defined]
            request.axes_locked_out = True  # type: ignore[attr-defined]
            request.axes_credentials = credentials  # type: ignore[attr-defined]
            user_locked_out.send(
                "axes",
                request=request,
                username=get_client_username(request, credentials),
                ip_address=request.axes_ip_address,  # type: ignore[attr-defined]
            )
