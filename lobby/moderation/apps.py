from __future__ import annotations

from django.apps import AppConfig


class ModerationConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "lobby.moderation"
    label = "moderation"
    verbose_name = "Moderation"

    def ready(self) -> None:
        from lobby.moderation import hooks

        hooks.connect()
