from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from lobby import views

app_name = "lobby"

# Mounted at the site root: the account pages live at /settings/ and /players/<username>/,
# and the lobby itself (a later issue) at /lobby/.
urlpatterns: list[URLPattern | URLResolver] = [
    path("settings/", views.account_settings, name="settings"),
    path("players/<str:username>/", views.player, name="player"),
]
