from __future__ import annotations

from django.apps import AppConfig


class OAuthAppsConfig(AppConfig):
    # Its own label: the toolkit's models are the tables; this app only brings the
    # register_app command, the consent page and the Settings section.
    name = "lobby.oauth"
    label = "gin_oauth"
    verbose_name = "Apps signed in with OAuth"

    def ready(self) -> None:
        from lobby.oauth import access

        access.connect()
