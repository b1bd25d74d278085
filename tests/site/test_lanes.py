"""HTTP requests run on long-lived lanes (ginsite.serving.lanes): one request after another reuse
the same thread (and with it the database connection), the whole request (middleware and view)
runs there without hops to the event loop, a request that finds every lane busy waits for
one (no more requests at once than lanes), and the event stream holds a lane only while it
opens: not for the hours it stays open."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest
from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from asgiref.testing import ApplicationCommunicator
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.test import override_settings
from django.urls import path

from ginsite.serving.lanes import LanedASGIHandler

seen: list[str] = []
release = threading.Event()


def where(request: HttpRequest) -> HttpResponse:
    seen.append(threading.current_thread().name)
    if request.GET.get("wait"):
        release.wait(timeout=10)
    return HttpResponse(threading.current_thread().name)


stream_more = threading.Event()


def stream(request: HttpRequest) -> StreamingHttpResponse:
    """A stream's first line says where its view ran; then it waits for news until told."""
    seen.append("stream " + threading.current_thread().name)

    async def lines():  # type: ignore[no-untyped-def]
        yield (threading.current_thread().name + "\n").encode()
        while not stream_more.is_set():
            await asyncio.sleep(0.01)
        yield b"end\n"

    return StreamingHttpResponse(lines())


urlpatterns = [path("where/", where), path("stream/where/", stream), path("slow/where/", where)]


class BothWays:
    """A middleware that can run either way, as Axes, htmx and allauth's can: Django's
    asynchronous chain runs it on the event loop."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response):  # type: ignore[no-untyped-def]
        self.get_response = get_response
        if iscoroutinefunction(get_response):
            markcoroutinefunction(self)

    def __call__(self, request):  # type: ignore[no-untyped-def]
        if iscoroutinefunction(self):
            return self._acall(request)
        seen.append("middleware " + threading.current_thread().name)
        return self.get_response(request)

    async def _acall(self, request):  # type: ignore[no-untyped-def]
        seen.append("middleware " + threading.current_thread().name)
        return await self.get_response(request)


def _communicator(app: LanedASGIHandler, url: str, query: str = "") -> ApplicationCommunicator:
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": url,
        "raw_path": url.encode(),
        "query_string": query.encode(),
        "headers": [(b"host", b"localhost")],
        "client": ("127.0.0.1", 40000),
        "server": ("localhost", 80),
    }
    return ApplicationCommunicator(app, scope)


async def _get(app: LanedASGIHandler, url: str, query: str = "") -> tuple[int, bytes]:
    communicator = _communicator(app, url, query)
    await communicator.send_input({"type": "http.request", "body": b""})
    start = await communicator.receive_output(timeout=10)
    body = await communicator.receive_output(timeout=10)
    await communicator.wait(timeout=10)
    return start["status"], body["body"]


@pytest.fixture(autouse=True)
def _urls() -> None:
    seen.clear()
    release.clear()
    stream_more.clear()
    with override_settings(ROOT_URLCONF=__name__, ALLOWED_HOSTS=["localhost"]):
        yield


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_requests_one_after_another_reuse_one_long_lived_thread() -> None:
    app = LanedASGIHandler(2)
    names = {(await _get(app, "/where/"))[1] for _ in range(5)}
    assert len(names) == 1
    assert names.pop().startswith(b"lane")


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_middleware_and_the_view_run_on_the_lane_in_one_go() -> None:
    with override_settings(MIDDLEWARE=[f"{__name__}.BothWays"]):
        app = LanedASGIHandler(1)
    status, name = await _get(app, "/where/")
    assert status == 200 and name.startswith(b"lane")
    assert seen == [f"middleware {name.decode()}", name.decode()]


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_request_goes_to_its_lane_once_with_its_signals() -> None:
    """Django's handler went to a thread three times a request (``request_started``, the view,
    the answer's ``close`` and ``request_finished``), each a turn on the loop every socket of
    the process shares; on a lane it is one hop, and the signals still run there (the
    database connection is kept or closed on the lane's thread, where it lives)."""
    from django.core import signals

    app = LanedASGIHandler(1)
    (lane,) = app.lanes._free
    hops: list[str] = []
    submit = lane.submit

    def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        hops.append("hop")
        return submit(*args, **kwargs)

    lane.submit = counted  # type: ignore[method-assign]

    def started(**kwargs):  # type: ignore[no-untyped-def]
        seen.append("started " + threading.current_thread().name)

    def finished(**kwargs):  # type: ignore[no-untyped-def]
        seen.append("finished " + threading.current_thread().name)

    signals.request_started.connect(started)
    signals.request_finished.connect(finished)
    try:
        status, name = await _get(app, "/where/")
    finally:
        signals.request_started.disconnect(started)
        signals.request_finished.disconnect(finished)
    assert status == 200 and name.startswith(b"lane")
    assert seen == [f"started {name.decode()}", name.decode(), f"finished {name.decode()}"]
    assert hops == ["hop"]


async def _until(condition, what: str) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + 10
    while not condition():
        assert time.monotonic() < deadline, what
        await asyncio.sleep(0.01)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_request_that_finds_every_lane_busy_waits_for_one() -> None:
    app = LanedASGIHandler(1)
    busy = asyncio.ensure_future(_get(app, "/where/", "wait=1"))
    await _until(lambda: seen, "the first request never reached its view")
    waiting = asyncio.ensure_future(_get(app, "/where/"))
    await _until(lambda: app.lanes._waiting, "the second request never queued for the lane")
    # Not served on a thread of its own beside the lane (as many requests at once as the
    # database pool has connections, no more): it waits while the first holds the lane.
    assert len(seen) == 1 and not waiting.done()
    release.set()
    (status, held), (second_status, second) = await asyncio.gather(busy, waiting)
    assert status == second_status == 200
    assert held.startswith(b"lane") and second == held


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_request_that_gave_up_waiting_does_not_take_the_lane_with_it() -> None:
    app = LanedASGIHandler(1)
    busy = asyncio.ensure_future(_get(app, "/where/", "wait=1"))
    await _until(lambda: seen, "the first request never reached its view")
    gone = _communicator(app, "/where/")
    await gone.send_input({"type": "http.request", "body": b""})
    await _until(lambda: app.lanes._waiting, "the second request never queued for the lane")
    gone.future.cancel()  # the server dropped it while it waited (the client went away)
    await _until(lambda: not app.lanes._waiting, "the dropped request still waits")
    release.set()
    assert (await busy)[0] == 200
    status, name = await _get(app, "/where/")
    assert status == 200 and name.startswith(b"lane")
    assert len(seen) == 2  # the dropped request never ran


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_stream_takes_a_lane_to_open_and_gives_it_back_with_its_first_line() -> None:
    app = LanedASGIHandler(1, streaming_paths=("/stream/",))
    busy = asyncio.ensure_future(_get(app, "/where/", "wait=1"))
    await _until(lambda: seen, "the first request never reached its view")
    # While every lane is busy a stream does not open (its opening uses the database as a
    # request does): it waits for the lane.
    opening = _communicator(app, "/stream/where/")
    await opening.send_input({"type": "http.request", "body": b""})
    await _until(lambda: app.lanes._waiting, "the stream never queued for the lane")
    assert seen == [seen[0]]
    release.set()
    assert (await busy)[0] == 200
    start = await opening.receive_output(timeout=10)
    first = await opening.receive_output(timeout=10)
    assert start["status"] == 200 and first["more_body"]
    # Its view ran in Django's own thread for it, not on the lane it held.
    assert not first["body"].startswith(b"lane")
    # Open, waiting for news: the lane is free again for the next request.
    status, name = await _get(app, "/where/")
    assert status == 200 and name.startswith(b"lane")
    stream_more.set()
    assert (await opening.receive_output(timeout=10))["body"] == b"end\n"


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_requests_that_hash_a_password_wait_on_lanes_of_their_own() -> None:
    """A burst of sign-ins (each a password's hash, a good part of a second) fills the slow
    lanes and waits there: a move still finds its lane free, and a sign-in still finds its
    own while the moves' lanes are all busy."""
    app = LanedASGIHandler(1, slow_paths=("/slow/",), slow_size=1)
    signing_in = asyncio.ensure_future(_get(app, "/slow/where/", "wait=1"))
    await _until(lambda: seen, "the sign-in never reached its view")
    queued = _communicator(app, "/slow/where/")
    await queued.send_input({"type": "http.request", "body": b""})
    await _until(lambda: app.slow_lanes._waiting, "the second sign-in never queued")
    status, move_lane = await _get(app, "/where/")  # not behind the sign-ins
    assert status == 200 and move_lane.startswith(b"lane")
    release.set()
    status, slow_lane = await signing_in
    assert status == 200 and slow_lane.startswith(b"slow-lane")
    assert (await queued.receive_output(timeout=10))["status"] == 200
    await queued.receive_output(timeout=10)

    # And the other way round: every move's lane busy, a sign-in is served.
    release.clear()
    seen.clear()
    moving = asyncio.ensure_future(_get(app, "/where/", "wait=1"))
    await _until(lambda: seen, "the move never reached its view")
    assert (await _get(app, "/slow/where/"))[0] == 200
    release.set()
    assert (await moving)[0] == 200
