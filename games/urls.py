from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from . import views

app_name = "games"

urlpatterns: list[URLPattern | URLResolver] = [
    path("new/", views.new_match, name="new"),
    path("<str:public_id>/", views.table, name="table"),
    path("<str:public_id>/act", views.act, name="act"),
    path("<str:public_id>/bea", views.bea, name="bea"),
    path("<str:public_id>/hint", views.hint, name="hint"),
    path("<str:public_id>/resign", views.resign, name="resign"),
    path("<str:public_id>/offer", views.offer, name="offer"),
    path("<str:public_id>/answer", views.answer, name="answer"),
    path("<str:public_id>/claim", views.claim, name="claim"),
]
