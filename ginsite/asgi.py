"""ASGI entry point: HTTP goes to Django, websockets to the Channels consumers."""

from __future__ import annotations

import os
from typing import Any

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ginsite.settings")

# Set up Django (apps, models) before importing routing, which imports consumers and models.
django.setup(set_prefix=False)

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import WebsocketDenier  # noqa: E402
from django.conf import settings  # noqa: E402

import games.routing  # noqa: E402
import ginsite.serving.daphne_http  # noqa: E402
import lobby.routing  # noqa: E402
from games.bea.turns import Resumer  # noqa: E402
from games.outbox import sweeper  # noqa: E402
from games.services import deal_overdue  # noqa: E402
from ginsite.lib import timeline  # noqa: E402
from ginsite.lib.after_commit import remember_server_loop  # noqa: E402
from ginsite.lib.origins import OriginValidator, SessionFromAllowedOrigins  # noqa: E402
from ginsite.lib.socket_auth import AuthMiddlewareStack  # noqa: E402
from ginsite.serving.collector import freeze_startup  # noqa: E402
from ginsite.serving.lanes import LanedASGIHandler  # noqa: E402
from ginsite.serving.proxy import TrustedProxy  # noqa: E402
from lobby.arena.service import sweep as arena_sweep  # noqa: E402
from lobby.events.socket import EventsConsumer  # noqa: E402
from lobby.pool.service import pair_waiting, tell_widened  # noqa: E402
from lobby.webpush.notifications import remind_due  # noqa: E402

# What daphne answers before Django (a form body it cannot parse, headers over its limit) is
# the API's JSON error, not a bare 400.
ginsite.serving.daphne_http.install()

# Pages' sockets: only from the site's own origins (scheme, host and port; see ginsite.lib.origins).
pages = OriginValidator(
    AuthMiddlewareStack(
        URLRouter(games.routing.websocket_urlpatterns + lobby.routing.websocket_urlpatterns)
    )
)
# The API's event socket is also for programs signed in with a token, which send no Origin: it
# accepts any origin, but reads the session cookie only on a handshake from one of ours.
api_events = SessionFromAllowedOrigins(EventsConsumer.as_asgi())


async def websockets(scope: Any, receive: Any, send: Any) -> Any:
    if "\x00" in scope.get("path", ""):
        # No socket path holds a NUL, and PostgreSQL would refuse to look one up.
        return await WebsocketDenier()(scope, receive, send)
    if scope.get("path") == "/ws/events/":
        return await api_events(scope, receive, send)
    return await pages(scope, receive, send)


django_asgi_app = LanedASGIHandler(
    settings.HTTP_LANES,
    streaming_paths=("/api/v1/events/stream",),
    slow_paths=settings.HTTP_SLOW_PATHS,
    slow_size=settings.HTTP_SLOW_LANES,
)
# Behind nginx the client's address comes from X-Forwarded-For, believed from TRUSTED_PROXIES only.
router = TrustedProxy(
    ProtocolTypeRouter({"http": django_asgi_app, "websocket": websockets}),
    settings.TRUSTED_PROXIES,
)


async def application(scope: Any, receive: Any, send: Any) -> Any:
    # Our own threads (Bea's turns, the outbox sweep) send their pushes on this loop.
    remember_server_loop()
    if timeline.ON:
        timeline.start()  # bench.live --timeline
    return await router(scope, receive, send)


# Every server process delivers what a process that died after its commit never announced,
# plays Bea's turns that a process died holding, and deals the hands whose wait for the
# players' seeds is over (docs/fairness.md), pairs the quick-pairing pool, and reminds
# correspondence players whose time to move is nearly over.
if settings.OUTBOX_SWEEP:
    jobs = {
        "bea_turns": Resumer(),
        "deal_overdue": deal_overdue,
        # Quick pairing: players whose rating windows have widened since they joined, and the
        # tiles of those still waiting, which say how far.
        "pool_pairs": pair_waiting,
        "pool_widened": tell_widened,
        # Correspondence: remind the player to move when little of their time is left (at most
        # once a minute across workers, once per turn).
        "reminders": remind_due,
        # Arenas: the site's schedule, the starts, the pairing of free players, the ends.
        "arenas": arena_sweep,
    }
    for name, job in jobs.items():
        sweeper.jobs.append(timeline.timed("job", name, job) if timeline.ON else job)
    sweeper.start()

# A server process lives long, and what start-up built lives as long: the collector's full passes
# over it stopped the process for 100-146 ms every 5 s at 100 matches, and every move in flight
# waited (the push's p99; docs/performance.md). Frozen, it is never scanned again.
freeze_startup()
