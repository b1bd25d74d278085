"""The site as ``scripts/serve`` runs it, for tests: collectstatic, two daphne workers and
Debian's nginx in front with a self-signed certificate (``python -m deploy.serve``), on the
test's PostgreSQL database and Redis, on ports of its own. ``restart()`` rolls the workers as
``scripts/serve restart`` does.

nginx missing is a skip with its reason, except where it must run: in CI (``CI=true``) and
with ``GIN_DISTRIBUTED=1`` (CI's PostgreSQL pass), where scripts/_setup.sh installs it."""

from __future__ import annotations

import os
import random
import secrets
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
import redis

from bench.harness.processes import dying_with_parent

ROOT = Path(__file__).resolve().parents[1]
READY_SECONDS = 90.0
WORKERS = 2


def nginx_or_skip() -> None:
    if shutil.which("nginx") or Path("/usr/sbin/nginx").exists():
        return
    message = "needs Debian's nginx (scripts/_setup.sh installs it as root: apt-get install nginx)"
    must = os.environ.get("CI", "").lower() == "true" or os.environ.get(
        "GIN_DISTRIBUTED", ""
    ).strip().lower() in {"1", "true", "yes", "on"}
    if must:
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


def _free(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def _free_ports(count: int) -> int:
    """The first of ``count`` consecutive free ports."""
    for _ in range(200):
        first = random.randrange(20_000, 60_000)
        if all(_free(first + i) for i in range(count)):
            return first
    raise RuntimeError("no free ports")


def _test_database_url() -> str:
    """DATABASE_URL naming the test database this process uses (pytest-django's test_<name>)."""
    from django.db import connection

    parts = urllib.parse.urlsplit(os.environ["DATABASE_URL"])
    return urllib.parse.urlunsplit(parts._replace(path="/" + connection.settings_dict["NAME"]))


@dataclass
class ProxiedSite:
    base: str  # https://localhost:<port>, through nginx
    plain: str  # http://localhost:<port>, through nginx
    https_port: int
    env: dict[str, str]
    run_dir: Path
    log: Path
    process: subprocess.Popen[bytes]

    @property
    def cert(self) -> Path:
        return self.run_dir / "self-signed.crt"

    def tls(self) -> ssl.SSLContext:
        """A client context that trusts the site's self-signed certificate (and only it)."""
        return ssl.create_default_context(cafile=str(self.cert))

    def restart(self) -> subprocess.Popen[bytes]:
        """``scripts/serve restart``, started: the workers are replaced one at a time."""
        return subprocess.Popen(
            [sys.executable, "-m", "deploy.serve", "restart"], cwd=ROOT, env=self.env
        )

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def supervisor_lines(self) -> list[str]:
        """What ``scripts/serve`` itself said (each worker's restart, with its times)."""
        return [line for line in self.output().splitlines() if line.startswith("==> ")]


def _site_environment(tmp: Path) -> dict[str, str]:
    http_port, https_port = _free_ports(1), _free_ports(1)
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "ginsite.settings",
        "DATABASE_URL": _test_database_url(),
        "SECRET_KEY": secrets.token_urlsafe(40),
        "ALLOWED_HOSTS": "localhost,127.0.0.1",
        "DEBUG": "0",
        "EMAIL_URL": "locmem://",
        # The limits count in fixed windows of the clock: in windows of an hour the 21 token
        # guesses of the test of nginx never straddle the start of a new one (in 60 s windows
        # they did once, on a loaded machine, and the 21st was counted afresh: 401, not 429).
        "API_RATE_WINDOW": "3600",
        "API_RATE_LIMIT": "300000",
        "STATIC_ROOT": str(tmp / "static"),
        "GIN_RUN_DIR": str(tmp / "run"),
        "GIN_WORKERS": str(WORKERS),
        "GIN_WORKER_PORT": str(_free_ports(2 * WORKERS)),
        "GIN_HTTP_PORT": str(http_port),
        "GIN_HTTPS_PORT": str(https_port),
        "GIN_SERVER_NAME": "localhost",
        "GIN_DRAIN_SECONDS": "1",
    }


def _wait_ready(site: ProxiedSite) -> None:
    import urllib.request

    deadline = time.monotonic() + READY_SECONDS
    while time.monotonic() < deadline:
        if site.process.poll() is not None:
            raise RuntimeError(f"scripts/serve exited:\n{site.output()[-3000:]}")
        if site.cert.exists():
            try:
                with urllib.request.urlopen(
                    site.base + "/health/", timeout=5, context=site.tls()
                ) as answer:
                    if answer.status == 200:
                        return
            except OSError:
                pass
        time.sleep(0.3)
    raise RuntimeError(f"the site was not up within {READY_SECONDS} s:\n{site.output()[-3000:]}")


@contextmanager
def served_through_nginx() -> Iterator[ProxiedSite]:
    """The site behind nginx for the length of the block (the test's database must exist)."""
    nginx_or_skip()
    # Not under pytest's temporary directory, which only root may enter: nginx's workers
    # (www-data) read the static files and write their buffers here.
    tmp = Path(tempfile.mkdtemp(prefix="gin-nginx-"))
    tmp.chmod(0o755)
    try:
        with _served(tmp) as site:
            yield site
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


@contextmanager
def _served(tmp: Path) -> Iterator[ProxiedSite]:
    env = _site_environment(tmp)
    started = time.monotonic()
    # A fresh site's cache: the limits count in windows of an hour, and what an earlier run on
    # this Redis database counted (the token guesses of the test of nginx) would still count.
    redis.Redis.from_url(env["REDIS_URL"]).flushdb()
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "--verbosity", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    log = tmp / "serve.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            dying_with_parent([sys.executable, "-m", "deploy.serve"]),
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    port = int(env["GIN_HTTPS_PORT"])
    site = ProxiedSite(
        base=f"https://localhost:{port}",
        plain=f"http://localhost:{env['GIN_HTTP_PORT']}",
        https_port=port,
        env=env,
        run_dir=Path(env["GIN_RUN_DIR"]),
        log=log,
        process=process,
    )
    try:
        _wait_ready(site)
        print(f"site behind nginx up after {time.monotonic() - started:.0f} s")
        yield site
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
