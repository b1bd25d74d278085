"""``/health/`` for load balancers: 200 when the database, the cache and the channel layer all
answer, 500 when one does not (django-health-check; ``?format=json`` or ``Accept:
application/json`` for a JSON body naming each check, ``?format=text`` or ``Accept:
text/plain`` for lines of text, else an HTML page).

django-health-check also offers Atom, RSS and OpenMetrics, and answers them 200 whatever the
checks found (feed readers and Prometheus expect it): a balancer pointed at one of those would
keep sending players to a worker whose Redis is down. They are refused (406), as is any other
``format`` we do not serve, so that every answer's status says whether the worker is healthy."""

from __future__ import annotations

import dataclasses
from typing import Any

from channels.layers import get_channel_layer
from django.http import HttpRequest, HttpResponse
from health_check.base import HealthCheck
from health_check.exceptions import ServiceReturnedUnexpectedResult, ServiceUnavailable
from health_check.views import HealthCheckView

from ginsite.lib.channel_reader import ChannelReader


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

# The formats whose status is the health: 200 healthy, 500 not.
FORMATS = ("json", "text")
NOT_ACCEPTABLE = (
    "Not Acceptable: /health/ answers text/html, text/plain (?format=text) and "
    "application/json (?format=json), with 200 when healthy and 500 when not.\n"
)


def _not_acceptable() -> HttpResponse:
    return HttpResponse(NOT_ACCEPTABLE, status=406, content_type="text/plain; charset=utf-8")


class Health(HealthCheckView):
    """django-health-check's view without the formats that answer 200 while a check fails."""

    async def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        asked = request.GET.get("format")
        if asked and asked not in FORMATS:
            # Refused before the checks run: the answer could never say they failed.
            return _not_acceptable()
        response: HttpResponse = await super().get(request, *args, **kwargs)
        if response.status_code == 406:  # its own list of types names the refused ones
            return _not_acceptable()
        return response

    # Chosen by the Accept header (application/atom+xml, ...): refused the same way.
    def render_to_response_atom(self) -> HttpResponse:
        return _not_acceptable()

    def render_to_response_rss(self) -> HttpResponse:
        return _not_acceptable()

    def render_to_response_openmetrics(self) -> HttpResponse:
        return _not_acceptable()


health_view = Health.as_view(checks=CHECKS)
