"""ASGI entry point: HTTP goes to Django, websockets to the Channels consumers."""

from __future__ import annotations

import os
from typing import Any

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ginsite.settings")

# Set up Django (apps, models) before importing routing, which imports consumers and models.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

import games.routing  # noqa: E402
import lobby.routing  # noqa: E402
from lobby.stream import EventsConsumer  # noqa: E402

pages = AllowedHostsOriginValidator(
    AuthMiddlewareStack(
        URLRouter(games.routing.websocket_urlpatterns + lobby.routing.websocket_urlpatterns)
    )
)
# The API's event socket is also for programs signed in with a token, which send no Origin; it
# checks the origin itself whenever it relies on the session cookie (see lobby.stream).
api_events = AuthMiddlewareStack(EventsConsumer.as_asgi())


async def websockets(scope: Any, receive: Any, send: Any) -> Any:
    if scope.get("path") == "/ws/events/":
        return await api_events(scope, receive, send)
    return await pages(scope, receive, send)


application = ProtocolTypeRouter({"http": django_asgi_app, "websocket": websockets})
