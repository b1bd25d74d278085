from __future__ import annotations

from django.urls import path

from . import views

app_name = "offline_bea"

urlpatterns = [
    path("code.json", views.code, name="code"),
    path("<str:lang>/", views.page, name="page"),
]
