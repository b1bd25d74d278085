"""A real ASGI server (daphne, websockets included) for browser tests, in this process.

pytest-django's ``live_server`` speaks WSGI only, so it cannot serve the lobby's or the table's
websockets. Daphne runs here in a daemon thread instead: Twisted's reactor cannot be restarted,
so it is started once per test process and shared by every test that asks for it.

The test database is SQLite in memory, which another process could not open; threads can, if
they share the test's connection (what Django's own live server does for SQLite in memory).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

_lock = threading.Lock()
_url: str | None = None


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
    thread = threading.Thread(target=server.run, name="daphne", daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.listening_addresses:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("daphne did not start listening")
        time.sleep(0.05)
    host, port = server.listening_addresses[0]
    return f"http://{host}:{port}"


@contextmanager
def shared_database() -> Iterator[None]:
    """Let the server's threads use this thread's database connection.

    Django keeps one connection per thread; replacing that per-thread store with a plain
    object hands every thread the test's connection to the in-memory database. Only SQLite
    needs this: other databases are reached by each thread on its own.
    """
    from django.db import connections

    connection = connections["default"]
    if connection.vendor != "sqlite":
        # PostgreSQL: the (transactional) test commits, so the server's threads read it through
        # their own connections; one psycopg connection shared by threads would break.
        yield
        return
    handler: Any = connections
    connection.inc_thread_sharing()
    saved = handler._connections

    class Shared:
        pass

    shared = Shared()
    for alias in connections:
        setattr(shared, alias, connections[alias])
    handler._connections = shared
    try:
        yield
    finally:
        handler._connections = saved
        connection.dec_thread_sharing()
