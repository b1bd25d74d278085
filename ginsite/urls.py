from __future__ import annotations

from functools import partial

from django.contrib import admin
from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.templatetags.static import static
from django.urls import include, path, re_path
from django.views.generic import RedirectView
from ninja.openapi.views import openapi_view

from games.web.views import home, how_to_play
from ginsite.api import api, not_found_view
from ginsite.health import health_view
from ginsite.logins import too_many_requests
from ginsite.pwa import manifest, offline, service_worker


def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask for /favicon.ico whatever a page links: send them to the SVG icon (its
    hashed name is only known once the static files are collected, so not at import)."""
    return HttpResponsePermanentRedirect(static("favicon.svg"))


# allauth answers a request over one of its rate limits with this (JSON for apps).
handler429 = too_many_requests

urlpatterns = [
    # The API first: an app's move is the request a busy site answers most, and each pattern
    # before it is one more tried (Django notes every pattern a request did not match): with
    # the API after the pages' five includes, finding a move's view took 55 us, first 18 us
    # (5% of a worker's time at 150 matches; docs/performance.md, issue 45).
    path("api/v1/", api.urls),
    path("api/docs", partial(openapi_view, api=api), name="api-docs"),
    # Anything else under /api/ answers in JSON too.
    re_path(r"^api/(?P<rest>.*)$", not_found_view),
    path("", home, name="home"),
    path("how-to-play/", how_to_play, name="how_to_play"),
    # Where newcomers look for the rules first.
    path("rules/", RedirectView.as_view(pattern_name="how_to_play", query_string=True)),
    path("help/", RedirectView.as_view(pattern_name="how_to_play", query_string=True)),
    # For load balancers: the database, the cache and the channel layer (ginsite.health).
    path("health/", health_view, name="health"),
    # Browsers ask for /favicon.ico whatever the page links; send them to the SVG icon.
    path("favicon.ico", favicon),
    # The installable app: the worker at the root, so that its scope is the whole site.
    path("sw.js", service_worker, name="pwa-worker"),
    path("manifest.<str:lang>.webmanifest", manifest, name="pwa-manifest"),
    path("offline/<str:lang>/", offline, name="pwa-offline"),
    # Bea offline: her page and the engine's code for the browser (docs/offline.md).
    path("offline/bea/", include("games.offline.urls")),
    path("accounts/", include("allauth.urls")),
    path("admin/", admin.site.urls),
    path("games/", include("games.urls")),
    path("", include("lobby.urls")),
    path("", include("lobby.moderation.urls")),
    path("", include("lobby.playnow.urls")),
    path("", include("lobby.arena.urls")),
    # Apps signing players in: the consent page and the token endpoints (lobby/oauth).
    path("", include("lobby.oauth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
]
