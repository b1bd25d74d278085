"""``/health/`` for load balancers: 200 when the database, the cache and the channel layer all
answer, 500 when one does not (django-health-check; ``?format=json`` or ``Accept:
application/json`` for a JSON body naming each check)."""

from __future__ import annotations

import dataclasses

from channels.layers import get_channel_layer
from health_check.base import HealthCheck
from health_check.exceptions import ServiceReturnedUnexpectedResult, ServiceUnavailable
from health_check.views import HealthCheckView

from ginsite.channel_reader import ChannelReader


@dataclasses.dataclass
class ChannelLayer(HealthCheck):
    """The channel layer carries a message to a fresh channel and back: in Redis when REDIS_URL
    is set, which every worker's pushes go through."""

    alias: str = "default"

    async def run(self) -> None:
        layer = get_channel_layer(self.alias)
        if layer is None:
            raise ServiceUnavailable("No channel layer is configured")
        reader = ChannelReader(layer, "health.")
        try:
            channel = await reader.open()
            await layer.send(channel, {"type": "health.check"})
            message = await reader.get(timeout=3)
        except Exception as e:
            # Each backend fails its own way (OSError, redis' errors): all mean down.
            raise ServiceUnavailable("The channel layer did not answer") from e
        finally:
            # The pub/sub layer keeps a channel subscribed until its receive ends.
            await reader.close()
        if message is None:
            raise ServiceUnavailable("The channel layer did not answer within 3 s")
        if message.get("type") != "health.check":
            raise ServiceReturnedUnexpectedResult("The channel layer gave another message back")


CHECKS = (
    "health_check.checks.Database",
    "health_check.checks.Cache",
    "ginsite.health.ChannelLayer",
)

health_view = HealthCheckView.as_view(checks=CHECKS)
