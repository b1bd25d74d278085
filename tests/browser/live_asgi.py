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
