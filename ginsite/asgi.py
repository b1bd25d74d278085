"""ASGI entry point: HTTP goes to Django, websockets to the Channels consumers."""

from __future__ import annotations

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ginsite.settings")

# Set up Django (apps, models) before importing routing, which imports consumers and models.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

import games.routing  # noqa: E402
import lobby.routing  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(
                URLRouter(games.routing.websocket_urlpatterns + lobby.routing.websocket_urlpatterns)
            )
        ),
    }
)
