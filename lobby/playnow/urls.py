from __future__ import annotations

from django.urls import path

from . import views

app_name = "playnow"

urlpatterns = [
    path("lobby/pool/bea", views.play_bea, name="play_bea"),
    path("lobby/pool/keep-waiting", views.decline, name="decline"),
    path("lobby/pool/switch", views.switch, name="switch"),
    path("lobby/pool/stop", views.leave, name="leave"),
]
