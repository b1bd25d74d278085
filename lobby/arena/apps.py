from __future__ import annotations

from django.apps import AppConfig


class ArenaConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "lobby.arena"
    label = "arena"
    verbose_name = "Arenas"

    def ready(self) -> None:
        from lobby.arena import hooks

        hooks.connect()
