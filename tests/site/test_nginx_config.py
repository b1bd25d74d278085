"""deploy/nginx.conf as scripts/serve renders it: nginx accepts it, and when no worker answers a
player gets a page that tries again by itself and an app the API's JSON shape, never nginx's
own error page."""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import ssl
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from deploy.config import ROOT, Config, free_port, on_loopback
from deploy.nginx import Nginx, render
from tests.proxied import nginx_or_skip


@pytest.fixture
def nginx_without_workers() -> Iterator[tuple[int, ssl.SSLContext]]:
    nginx_or_skip()
    config = on_loopback(
        1,
        free_port(),  # nobody listens there
        prefix="gin-nginx-conf-",
        nginx_user=os.environ.get("GIN_NGINX_USER", "www-data"),
    )
    run_dir = config.run_dir
    nginx = Nginx(config)
    nginx.write([config.worker_port])
    nginx.start()
    try:
        for _ in range(100):
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", config.https_port)) == 0:
                    break
            time.sleep(0.05)
        yield config.https_port, ssl.create_default_context(cafile=nginx.cert)
    finally:
        nginx.stop()
        shutil.rmtree(run_dir, ignore_errors=True)


def answer(port: int, tls: ssl.SSLContext, path: str) -> urllib.error.HTTPError:
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(f"https://localhost:{port}{path}", timeout=10, context=tls)
    return refused.value


def test_every_name_is_filled_in() -> None:
    config = Config(2, 8101, 80, 443, "gin.example", Path("/run/gin"), "", "", 5.0, ROOT, "x")
    text = render(config, [8101, 8102], "/c.pem", "/k.pem")
    assert "server 127.0.0.1:8101 " in text and "server 127.0.0.1:8102 " in text
    assert re.search(r"@[A-Z_]+@", text) is None


def test_with_no_worker_a_page_tries_again_by_itself(nginx_without_workers) -> None:  # type: ignore[no-untyped-def]
    port, tls = nginx_without_workers
    page = answer(port, tls, "/lobby/")
    assert page.code == 502
    assert page.headers["Retry-After"] == "5"
    assert '<meta http-equiv="refresh" content="5">' in page.read().decode()


def test_with_no_worker_an_app_gets_the_apis_shape(nginx_without_workers) -> None:  # type: ignore[no-untyped-def]
    port, tls = nginx_without_workers
    for path in ("/api/v1/me", "/api/v1/events/stream"):
        refused = answer(port, tls, path)
        assert refused.code == 502
        assert refused.headers["Content-Type"] == "application/json"
        assert json.loads(refused.read())["code"] == "bad_gateway"
