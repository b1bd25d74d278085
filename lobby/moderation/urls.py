from __future__ import annotations

from django.urls import URLPattern, path

from . import mod_views, views

app_name = "moderation"

# Mounted at the site root: a player's report page beside their page (/players/<name>/), the
# moderators' pages under /moderation/.
urlpatterns: list[URLPattern] = [
    path("players/<str:username>/report/", views.report, name="report"),
    path("notices/<int:pk>/acknowledge", views.acknowledge, name="acknowledge"),
    path("moderation/", mod_views.queue_page, name="queue"),
    path("moderation/patterns", mod_views.find_patterns, name="find_patterns"),
    path("moderation/players/<str:username>/", mod_views.player_page, name="player"),
    path("moderation/players/<str:username>/act", mod_views.act, name="act"),
    path("moderation/players/<str:username>/dismiss", mod_views.dismiss, name="dismiss"),
    path("moderation/players/<str:username>/lift/<int:pk>", mod_views.lift, name="lift"),
]
