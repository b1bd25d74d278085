from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from games.live import quick_message_views
from games.local import views as local_views
from games.private import views as private_views
from games.web import views

from .lesson import views as lesson
from .results_card import views as results_card

app_name = "games"

urlpatterns: list[URLPattern | URLResolver] = [
    path("new/", views.new_match, name="new"),
    path("friend/", private_views.private_new, name="private_new"),
    path("t/<str:token>/", private_views.private_table, name="private"),
    path("t/<str:token>/join", private_views.private_join, name="private_join"),
    path("local/", local_views.local_new, name="local_new"),
    path("local/<str:public_id>/", local_views.local_table, name="local"),
    path("local/<str:public_id>/reveal", local_views.local_reveal, name="local_reveal"),
    path("local/<str:public_id>/act", local_views.local_act, name="local_act"),
    path("local/<str:public_id>/restart", local_views.local_restart, name="local_restart"),
    path("local/<str:public_id>/order", local_views.local_order, name="local_order"),
    path("local/<str:public_id>/hint", local_views.local_hint, name="local_hint"),
    path("lesson/", lesson.start, name="lesson"),
    path("lesson/no-thanks", lesson.decline, name="lesson_decline"),
    path("lesson/<str:public_id>/leave", lesson.leave, name="lesson_leave"),
    path("results/<str:token>/", results_card.results_card, name="results_card"),
    path(
        "results/<str:token>/card.png", results_card.results_card_image, name="results_card_image"
    ),
    path("<str:public_id>/", views.table, name="table"),
    path("<str:public_id>/act", views.act, name="act"),
    path("<str:public_id>/hint", views.hint, name="hint"),
    path("<str:public_id>/order", views.order, name="order"),
    path("<str:public_id>/resign", views.resign, name="resign"),
    path("<str:public_id>/offer", views.offer, name="offer"),
    path("<str:public_id>/answer", views.answer, name="answer"),
    path("<str:public_id>/claim", views.claim, name="claim"),
    path("<str:public_id>/messages", quick_message_views.send, name="quick_message"),
    path("<str:public_id>/messages/mute", quick_message_views.mute, name="quick_mute"),
    path("<str:public_id>/replay/<int:hand>/", views.replay, name="replay"),
]
