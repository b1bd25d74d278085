"""PostgreSQL connections are bounded per worker: a pool of DB_POOL_MAX (Django's psycopg pool),
and a long NDJSON event stream holds none of its own, so streams cannot use the pool up."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db import connection

from lobby.accounts import tokens
from tests.envsettings import load_settings

if TYPE_CHECKING:
    from django.contrib.auth.models import User

ROOT = Path(__file__).resolve().parents[2]
PG = "postgres://gin@db.internal:5432/gin"


def test_it_pools_postgresql_connections_from_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    db = load_settings(
        monkeypatch, DATABASE_URL=PG, DB_POOL_MIN="1", DB_POOL_MAX="8", DB_POOL_TIMEOUT="5"
    )["DATABASES"]["default"]
    assert db["OPTIONS"]["pool"] == {"min_size": 1, "max_size": 8, "timeout": 5}
    assert db["CONN_MAX_AGE"] == 0  # the pool hands connections back; Django must not keep them


def test_it_pools_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    db = load_settings(monkeypatch, DATABASE_URL=PG)["DATABASES"]["default"]
    assert db["OPTIONS"]["pool"] == {"min_size": 2, "max_size": 20, "timeout": 10}


def test_it_keeps_persistent_connections_without_the_pool(monkeypatch: pytest.MonkeyPatch) -> None:
    db = load_settings(monkeypatch, DATABASE_URL=PG, DB_POOL_MAX="0", CONN_MAX_AGE="60")[
        "DATABASES"
    ]["default"]
    assert "pool" not in db.get("OPTIONS", {})
    assert db["CONN_MAX_AGE"] == 60


@pytest.mark.parametrize(
    "env",
    [
        {"CONN_MAX_AGE": "60"},  # the pool and persistent connections exclude each other
        {"DB_POOL_MIN": "30"},  # more than the 20 at most
        {"DB_POOL_TIMEOUT": "0"},
    ],
)
def test_it_refuses_settings_that_cannot_work(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str]
) -> None:
    with pytest.raises(ImproperlyConfigured):
        load_settings(monkeypatch, DATABASE_URL=PG, **env)


def test_sqlite_has_no_pool(monkeypatch: pytest.MonkeyPatch) -> None:
    db = load_settings(monkeypatch)["DATABASES"]["default"]
    assert db["ENGINE"] == "django.db.backends.sqlite3"
    assert "pool" not in db["OPTIONS"]


# --- A real worker on PostgreSQL ----------------------------------------------------------------

POOL = 2
STREAMS = 5
APP = "gin-pool-test"


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def worker(postgresql_only: None) -> Iterator[str]:
    """One daphne worker on this test database, with a pool of POOL connections."""
    parts = urllib.parse.urlsplit(os.environ["DATABASE_URL"])
    url = urllib.parse.urlunsplit(
        parts._replace(path="/" + connection.settings_dict["NAME"], query=f"application_name={APP}")
    )
    port = _free_port()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "ginsite.settings",
        "DATABASE_URL": url,
        "DB_POOL_MIN": "1",
        "DB_POOL_MAX": str(POOL),
        "DB_POOL_TIMEOUT": "3",
        "DEBUG": "1",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port)]
        + ["ginsite.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(base + "/health/", timeout=5):
                    break
            # Refused before it listens; a read that times out while it starts on a busy machine.
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise RuntimeError("daphne did not start") from None
                time.sleep(0.2)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=10)


def _open_stream(url: str, token: str, hellos: list[str], stop: threading.Event) -> None:
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=30) as response:
        hellos.append(json.loads(response.readline())["type"])
        stop.wait(20)


def _connections() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE application_name = %s", [APP])
        return int(cursor.fetchone()[0])


@pytest.mark.distributed
@pytest.mark.django_db(transaction=True)
def test_open_event_streams_do_not_use_up_the_pool(worker: str, alice: User) -> None:
    token = tokens.create(alice, "streams")[1]
    hellos: list[str] = []
    stop = threading.Event()
    threads = [
        threading.Thread(
            target=_open_stream,
            args=(worker + "/api/v1/events/stream", token, hellos, stop),
            daemon=True,
        )
        for _ in range(STREAMS)
    ]
    for thread in threads:
        thread.start()
    try:
        deadline = time.monotonic() + 15
        while len(hellos) < STREAMS and time.monotonic() < deadline:
            time.sleep(0.1)
        assert hellos == ["hello"] * STREAMS  # more streams than connections, all served
        request = urllib.request.Request(
            worker + "/api/v1/me", headers={"Authorization": f"Bearer {token}"}
        )
        # Served: had the open streams held the pool's connections, the request would have
        # waited the pool's timeout for one and been refused (503), however fast the machine.
        with urllib.request.urlopen(request, timeout=10) as response:
            assert response.status == 200
        assert _connections() <= POOL
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=5)
