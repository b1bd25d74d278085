from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

from games.views import home

urlpatterns = [
    path("", home, name="home"),
    path("accounts/", include("allauth.urls")),
    path("admin/", admin.site.urls),
    path("games/", include("games.urls")),
    path("", include("lobby.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
]
