"""``bench.live --via-proxy``: nginx in front of the site's workers, as ``scripts/serve`` runs
it (deploy/nginx.conf, TLS with a self-signed certificate, the workers as its upstream), so
that the same players at the same pace can be measured through it and without it."""

from __future__ import annotations

import shutil
import socket
import ssl
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from deploy.config import on_loopback
from deploy.nginx import Nginx

READY_SECONDS = 30.0


@dataclass(frozen=True)
class Front:
    """Where the players connect instead of the workers: nginx's HTTPS port, and a client
    context that trusts its certificate."""

    port: int
    tls: ssl.SSLContext
    pid: int  # nginx's master process (its workers are its children)


def _wait_listening(port: int) -> None:
    deadline = time.monotonic() + READY_SECONDS
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise RuntimeError(f"nginx did not listen on {port} within {READY_SECONDS:.0f} s")


@contextmanager
def nginx_in_front(ports: list[int]) -> Iterator[Front]:
    """nginx on free ports, proxying to the workers on ``ports``, for the length of the block."""
    config = on_loopback(len(ports), ports[0], prefix="bench-live-nginx-", nginx_user="www-data")
    run_dir = config.run_dir
    nginx = Nginx(config)
    nginx.write(ports)
    nginx.start()
    try:
        _wait_listening(config.https_port)
        tls = ssl.create_default_context(cafile=nginx.cert)
        yield Front(config.https_port, tls, nginx.pid() or 0)
    finally:
        nginx.stop()
        shutil.rmtree(run_dir, ignore_errors=True)
