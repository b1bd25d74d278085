from __future__ import annotations

from django.apps import AppConfig


class LobbyConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "lobby"

    def ready(self) -> None:
        from lobby import subscribers
        from lobby.accounts import bots
        from lobby.ratings import table

        subscribers.connect()
        table.connect()
        bots.connect()
