"""One ASGI worker: daphne serving ginsite.asgi on a loopback port, behind nginx."""

from __future__ import annotations

import http.client
import os
import subprocess
import sys
import time

from deploy.config import ROOT, Config

READY_SECONDS = 60.0
STOP_SECONDS = 10.0


def worker_environment() -> dict[str, str]:
    """The site's environment, with what a worker behind this nginx needs unless the operator
    said otherwise: believe X-Forwarded-For from the local nginx only, and X-Forwarded-Proto
    (nginx always sets it) for which requests came over TLS."""
    env = dict(os.environ)
    for name, value in (
        ("TRUSTED_PROXIES", "127.0.0.1,::1"),
        ("SECURE_PROXY_SSL_HEADER", "X-Forwarded-Proto"),
        ("DJANGO_SETTINGS_MODULE", "ginsite.settings"),
    ):
        if not env.get(name, "").strip():
            env[name] = value
    return env


# Without daphne's own access log: every request is logged once, by the site
# (ginsite/serving/requestlog.py), its query left out and the key of an e-mail or password-reset
# link starred; daphne's line beside it printed the whole address, tokens and keys included, and
# writing it took 1.7% of a worker's samples at 100 matches, all on its event loop (py-spy;
# docs/performance.md).
# Verbosity 0 only turns that log off: the site's logging is its own (settings.LOGGING).
DAPHNE_QUIET = ("-v", "0")


class Worker:
    """A daphne process on ``port``, started at once."""

    def __init__(self, config: Config, port: int) -> None:
        self.config = config
        self.port = port
        self.process = subprocess.Popen(
            [sys.executable, "-m", "daphne", *DAPHNE_QUIET, "-b", "127.0.0.1", "-p", str(port)]
            + ["ginsite.asgi:application"],
            cwd=ROOT,
            env=worker_environment(),
        )

    def alive(self) -> bool:
        return self.process.poll() is None

    def healthy(self) -> bool:
        """``/health/`` answers 200 (database, cache and channel layer all answer)."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
        try:
            connection.request("GET", "/health/", headers={"Host": self.config.server_name})
            return connection.getresponse().status == 200
        except OSError:
            return False
        finally:
            connection.close()

    def wait_ready(self) -> bool:
        deadline = time.monotonic() + READY_SECONDS
        while time.monotonic() < deadline and self.alive():
            if self.healthy():
                return True
            time.sleep(0.2)
        return False

    def stop(self) -> None:
        """SIGTERM: daphne closes its sockets (the clients reconnect through nginx to the other
        workers) and exits; killed if it has not within STOP_SECONDS."""
        if not self.alive():
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=STOP_SECONDS)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=STOP_SECONDS)
