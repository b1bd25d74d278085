from __future__ import annotations

from django.apps import AppConfig


class PlayNowConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "lobby.playnow"
    label = "playnow"
    verbose_name = "Bea while you wait"

    def ready(self) -> None:
        from lobby.playnow import notice

        notice.connect()
