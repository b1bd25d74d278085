"""The floor for ``bench.live``: a bare Channels relay, run under daphne like the site.

``daphne bench.live.relay:application`` with the site's own settings (so the same channel layer:
in-memory, or Redis from ``REDIS_URL``). Two sockets join ``/relay/<pair>/``; a frame one of
them sends goes through ``group_send`` to the pair's group, and the other one receives it. No
database, no rendering: what is left is daphne, Channels and the channel layer.
"""

from __future__ import annotations

import os
from typing import Any

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ginsite.settings")
django.setup()

from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter  # noqa: E402


class RelayConsumer(AsyncWebsocketConsumer):
    group = ""

    async def connect(self) -> None:
        pair = str(self.scope.get("path", "")).strip("/").rpartition("/")[2]
        if not pair.isdigit():
            await self.close(code=4404)
            return
        self.group = f"relay-{pair}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        message = {"type": "relay.frame", "text": text_data or "", "sender": self.channel_name}
        await self.channel_layer.group_send(self.group, message)

    async def relay_frame(self, event: dict[str, Any]) -> None:
        if event["sender"] != self.channel_name:
            await self.send(text_data=event["text"])


async def ready(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """Any HTTP request: 200, so the benchmark can tell the server is up."""
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"relay\n"})


application = ProtocolTypeRouter({"http": ready, "websocket": RelayConsumer.as_asgi()})
