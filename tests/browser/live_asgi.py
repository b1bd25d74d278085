"""A real ASGI server (daphne, websockets included) for browser tests, in this process.

pytest-django's ``live_server`` speaks WSGI only, so it cannot serve the lobby's or the table's
websockets. Daphne runs here in a daemon thread instead: Twisted's reactor cannot be restarted,
so it is started once per test process and shared by every test that asks for it.

Its threads open their own database connections, as in production: the tests that use it are
transactional, so what they write is committed and the server sees it. The SQLite test database
is a file for this reason (see tests/conftest.py); in memory it would lock whole tables.
"""

from __future__ import annotations

import threading
import time
from typing import Any

_lock = threading.Lock()
_url: str | None = None
_server: Any = None


def serve() -> str:
    """The base URL of the shared server (http://127.0.0.1:<port>), starting it if needed."""
    global _url
    with _lock:
        if _url is None:
            _url = _start()
        return _url


def _start() -> str:
    import daphne.server  # installs the asyncio reactor before anything imports twisted's
    from channels.routing import get_default_application
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

    # Static files through the finders (DEBUG is off under pytest, so WhiteNoise would not).
    application = ASGIStaticFilesHandler(get_default_application())
    server = daphne.server.Server(
        application=application,
        endpoints=["tcp:port=0:interface=127.0.0.1"],
        signal_handlers=False,
        verbosity=0,
    )
    global _server
    _server = server
    thread = threading.Thread(target=server.run, name="daphne", daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.listening_addresses:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("daphne did not start listening")
        time.sleep(0.05)
    host, port = server.listening_addresses[0]
    return f"http://{host}:{port}"


def wait_idle(timeout: float = 10) -> bool:
    """Wait until the server runs no application: every request answered, and every socket's
    consumer finished, its close handled (its database work done). False if one still ran
    after ``timeout`` seconds (another browser still open); True at once when none serves."""
    deadline = time.monotonic() + timeout
    while _server is not None and not _idle(_server):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def _idle(server: Any) -> bool:
    try:
        connections = list(server.connections.values())
    except RuntimeError:  # the reactor's thread changed them meanwhile: look again
        return False
    return all(
        details["application_instance"].done()
        for details in connections
        if "application_instance" in details
    )
