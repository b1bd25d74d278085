from __future__ import annotations

from django.urls import URLPattern, path

from games import consumers

websocket_urlpatterns: list[URLPattern] = [
    path("ws/games/<str:public_id>/", consumers.MatchConsumer.as_asgi()),
]
