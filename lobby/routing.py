from __future__ import annotations

from django.urls import URLPattern, path

from lobby.arena.consumers import ArenaConsumer, ArenaListConsumer
from lobby.consumers import LobbyConsumer

websocket_urlpatterns: list[URLPattern] = [
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    path("ws/arena/<str:public_id>/", ArenaConsumer.as_asgi()),
    path("ws/arenas/", ArenaListConsumer.as_asgi()),
]
