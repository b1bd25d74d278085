from __future__ import annotations

from functools import partial

from django.contrib import admin
from django.urls import include, path, re_path
from ninja.openapi.views import openapi_view

from games.views import home
from ginsite.api import api, not_found_view

urlpatterns = [
    path("", home, name="home"),
    path("accounts/", include("allauth.urls")),
    path("admin/", admin.site.urls),
    path("games/", include("games.urls")),
    path("", include("lobby.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/v1/", api.urls),
    path("api/docs", partial(openapi_view, api=api), name="api-docs"),
    # Anything else under /api/ answers in JSON too.
    re_path(r"^api/(?P<rest>.*)$", not_found_view),
]
