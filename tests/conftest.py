from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from django.contrib.auth.models import User

PASSWORD = "correct horse battery staple"


@pytest.fixture(scope="session")
def django_db_modify_db_settings(
    django_db_modify_db_settings_parallel_suffix: None,
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """Put a SQLite test database in a file of this run's own, never in memory.

    Django's in-memory test database is shared between connections in SQLite's shared-cache
    mode, which locks whole tables across connections, so a server thread reading while the
    test writes fails with "database table is locked". In a file (with the WAL journal and
    busy timeout from settings) each thread has its own connection, as in production. The
    directory is new for every run (and every xdist worker), so runs never share a file.
    """
    from django.conf import settings

    for alias, db in settings.DATABASES.items():
        if db["ENGINE"] == "django.db.backends.sqlite3":
            db.setdefault("TEST", {})
            db["TEST"]["NAME"] = str(tmp_path_factory.mktemp("db") / f"test_{alias}.sqlite3")
            # A throwaway database needs no fsync on every commit, which costs the suite minutes.
            options = db.setdefault("OPTIONS", {})
            pragmas = [options["init_command"]] if options.get("init_command") else []
            options["init_command"] = "; ".join([*pragmas, "PRAGMA synchronous=OFF"])


@pytest.fixture(autouse=True)
def _bea_done() -> Iterator[None]:
    """No test leaves Bea moving in the background into the next one."""
    yield
    from games.bea import turns as bea_turns

    assert bea_turns.worker.wait_idle(30), "Bea was still moving when the test ended"


@pytest.fixture(autouse=True)
def _fresh_channel_layer() -> Iterator[None]:
    """Every test gets channel layers of its own. channels_redis keeps a receive lock on the
    layer object, bound to the event loop of its first receive; a socket a test left waiting
    would hand the next test's loop a lock it cannot use ("bound to a different event loop")."""
    yield
    from channels.layers import channel_layers

    channel_layers.backends.clear()


@pytest.fixture(autouse=True)
def _limits_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rate limits count in fixed windows of the clock; a test that sends twelve challenges
    across a minute's boundary would see the count start again. Every test runs one second
    into an hour (a window of 1, 10, 60 or 3600 seconds has just begun), frozen there."""
    import math
    import time
    from types import SimpleNamespace

    from ginsite.lib import limits

    start = math.floor(time.time() / 3600) * 3600 + 1
    monkeypatch.setattr(limits, "time", SimpleNamespace(time=lambda: start))


@pytest.fixture
def quick_bea(settings):  # type: ignore[no-untyped-def]
    """Bea without her thinking pause (her moves are still scheduled and played in the
    background, as on the site)."""
    settings.BEA_PAUSE_MS = 0


def _make_user(django_user_model: type[User], username: str) -> User:
    """A player as most tests want one: an account a month old with a verified e-mail address,
    as rated play needs (``lobby.ratings.eligibility``). Tests of new accounts, or of accounts
    without an address, make their own."""
    from datetime import timedelta

    from allauth.account.models import EmailAddress
    from django.utils import timezone

    joined = timezone.now() - timedelta(days=30)
    user = django_user_model.objects.create_user(
        username=username, password=PASSWORD, date_joined=joined
    )
    EmailAddress.objects.create(
        user=user, email=f"{username}@example.com", verified=True, primary=True
    )
    user.email = f"{username}@example.com"
    user.save(update_fields=["email"])
    return user


@pytest.fixture
def password() -> str:
    """The password every fixture user logs in with."""
    return PASSWORD


@pytest.fixture
def alice(django_user_model: type[User]) -> User:
    return _make_user(django_user_model, "alice")


@pytest.fixture
def bob(django_user_model: type[User]) -> User:
    return _make_user(django_user_model, "bob")


@pytest.fixture
def carol(django_user_model: type[User]) -> User:
    return _make_user(django_user_model, "carol")


def _require(*names: str) -> None:
    """Skip unless every variable is set, as the distributed tests do; with GIN_DISTRIBUTED=1
    (CI's second pass, on PostgreSQL and Redis) a missing one is a failure instead."""
    import os

    missing = [name for name in names if not os.environ.get(name)]
    if not missing:
        return
    if os.environ.get("GIN_DISTRIBUTED", "").strip().lower() in {"1", "true", "yes", "on"}:
        pytest.fail(f"GIN_DISTRIBUTED is set but {' and '.join(missing)} is not")
    pytest.skip(f"needs {' and '.join(missing)}")


@pytest.fixture
def postgresql_only() -> None:
    """Run only on PostgreSQL (DATABASE_URL)."""
    _require("DATABASE_URL")


@pytest.fixture
def redis_only() -> None:
    """Run only with the Redis cache and channel layer (REDIS_URL)."""
    _require("REDIS_URL")


@pytest.fixture(autouse=True)
def _language_of_no_request() -> Iterator[None]:
    """Each test starts in the site's default language. A test client's request leaves the
    language LocaleMiddleware chose active in the test's thread (Django does not undo it), so
    one test's German cookie made the refusals of the next test of the same worker German
    (tests/site/test_pwa.py's manifest test, then tests/lobby/test_pool.py)."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    """A test past its timeout is stopped by SIGALRM wherever it is, often while PostgreSQL
    answers one of its queries: that connection is left "busy" and the next tests of the same
    worker failed with "another command is already in progress" (CI's two runs at once: one
    timeout, three failures). The stopped test's connections are closed, so a timeout is one
    failure."""
    try:
        return (yield)
    except pytest.fail.Exception as stopped:
        if "pytest-timeout" in str(stopped):
            from django.db import connections

            for connection in connections.all(initialized_only=True):
                connection.close()
        raise
