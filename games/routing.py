from __future__ import annotations

from django.urls import URLPattern, path

from games.web import table_socket as consumers

websocket_urlpatterns: list[URLPattern] = [
    path("ws/games/<str:public_id>/", consumers.MatchConsumer.as_asgi()),
]
