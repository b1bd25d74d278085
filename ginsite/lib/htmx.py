"""Answers shared by the htmx views of every app."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect


def go_to(request: HttpRequest, url: str) -> HttpResponse:
    """Send the page to ``url``: an htmx request gets 204 with ``HX-Redirect`` (htmx then
    loads the page itself), a plain form post a redirect (post/redirect/get)."""
    if getattr(request, "htmx", False):
        response = HttpResponse(status=204)
        response["HX-Redirect"] = url
        return response
    return redirect(url)
