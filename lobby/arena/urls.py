from __future__ import annotations

from django.urls import URLPattern, path

from . import views

app_name = "arena"

urlpatterns: list[URLPattern] = [
    path("arenas/", views.arena_list, name="list"),
    path("arenas/new", views.create, name="create"),
    path("arenas/<str:public_id>/", views.page, name="page"),
    path("arenas/<str:public_id>/join", views.join, name="join"),
    path("arenas/<str:public_id>/pause", views.pause, name="pause"),
    path("arenas/<str:public_id>/leave", views.leave, name="leave"),
]
