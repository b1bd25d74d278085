from __future__ import annotations

from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        # Games' own subscribers of its announcements; the lobby's are in LobbyConfig.ready.
        from games.bea import turns as bea_turns
        from games.events import match_changed
        from games.lesson import hooks as lesson_hooks
        from games.table import subscriber as table_push

        match_changed.connect(table_push.on_change, dispatch_uid="games.table.subscriber")
        match_changed.connect(bea_turns.on_change, dispatch_uid="games.bea.turns")
        # A lesson's rules, in the move path by registration (games.table.add_ons.kinds).
        lesson_hooks.register()
