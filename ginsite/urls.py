from __future__ import annotations

from django.contrib import admin
from django.urls import include, path
from django.views.generic import TemplateView

urlpatterns = [
    path("", TemplateView.as_view(template_name="home.html"), name="home"),
    path("accounts/", include("allauth.urls")),
    path("admin/", admin.site.urls),
    path("games/", include("games.urls")),
    path("", include("lobby.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
]
